package format

// renderMarkdown renders a GitHub-flavoured markdown table with go-pretty,
// which escapes "|" as "\|" and turns line breaks into "<br/>".
func renderMarkdown(g *grid, opt Options) string { return prettyTable(g, opt).RenderMarkdown() }
