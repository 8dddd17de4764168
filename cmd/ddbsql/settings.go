package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// The settings file holds the defaults people set once (config.toml, see
// the README's "Settings file"). Its keys are named after the flags and
// take the same values; precedence, highest first:
//
//	profile, region, endpoint-url: flag > AWS environment variable > file
//	                               (the AWS CLI's order: the environment
//	                               wins over configuration files)
//	pager:                         file > $PAGER > less
//	everything else:               flag > file
//
// With --demo or --data the file's profile, region and endpoint-url are not
// used: they configure a connection those flags do not make.

// settingKind is the TOML type a key takes.
type settingKind int

const (
	kindString settingKind = iota // a string, passed to the flag as is
	kindNumber                    // an integer or a float
	kindBool                      // true or false
)

// setting describes one key of the file.
type setting struct {
	key     string
	kind    settingKind
	example string   // a good value, as written in the file
	choices []string // the allowed strings (nil: any)
	// env are environment variables that win over the file.
	env []string
	// connection keys are not used with --demo and --data.
	connection bool
	// check validates a string further (nil: none).
	check func(string) error
}

// fileSettings are the keys, in the order the README and errors list them.
var fileSettings = []setting{
	{key: "format", kind: kindString, example: `"csv"`, choices: format.Names()},
	{key: "stats", kind: kindString, example: `"text"`, choices: []string{"off", "text", "json"}},
	{key: "pager", kind: kindString, example: `"less -S"`},
	{key: "profile", kind: kindString, example: `"prod"`, env: []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE"}, connection: true},
	{key: "region", kind: kindString, example: `"eu-west-1"`, env: []string{"AWS_REGION", "AWS_DEFAULT_REGION"}, connection: true},
	{key: "endpoint-url", kind: kindString, example: `"http://localhost:8000"`,
		env: []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"}, connection: true, check: checkEndpointURL},
	{key: "max-rcu", kind: kindNumber, example: "100"},
	{key: "rate-limit", kind: kindNumber, example: "50"},
	{key: "read-price", kind: kindNumber, example: "0.125"},
	{key: "concurrency", kind: kindNumber, example: "8"},
	{key: "timeout", kind: kindString, example: `"30s"`},
	{key: "memory-limit", kind: kindString, example: `"4GiB"`},
	{key: "temp-dir", kind: kindString, example: `"/var/tmp"`},
	{key: "consistent", kind: kindBool, example: "true"},
	{key: "no-color", kind: kindBool, example: "true"},
}

// settingsError is a problem with the settings file: exit status 2.
type settingsError struct {
	path string
	line int // 0: the file as a whole
	msg  string
	hint string
}

// Hint says what to do about it.
func (e *settingsError) Hint() string {
	if e.hint != "" {
		return e.hint
	}
	return `fix the file, or use --config "" to run without it`
}

func (e *settingsError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("settings file %s, line %d: %s", e.path, e.line, e.msg)
	}
	return fmt.Sprintf("settings file %s: %s", e.path, e.msg)
}

// settingsPath picks the settings file: --config, else $DDBSQL_CONFIG, else
// $XDG_CONFIG_HOME/ddbsql/config.toml (XDG_CONFIG_HOME defaults to
// ~/.config). An empty --config or DDBSQL_CONFIG means no file. named
// reports whether the user named the file (then it must exist).
func settingsPath(flagPath string, flagSet bool, getenv func(string) (string, bool)) (path string, named bool) {
	if flagSet {
		return flagPath, true
	}
	if p, ok := getenv("DDBSQL_CONFIG"); ok {
		return p, true
	}
	if dir, ok := getenv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(dir) {
		return filepath.Join(dir, "ddbsql", "config.toml"), false
	}
	home, ok := getenv("HOME")
	if !ok || home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", false
		}
	}
	return filepath.Join(home, ".config", "ddbsql", "config.toml"), false
}

// applySettingsFile reads the settings file and sets the flags the command
// line did not set from it.
func applySettingsFile(flags *flag.FlagSet, cfg *config, getenv func(string) (string, bool)) *settingsError {
	onCommandLine := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	path, named := settingsPath(cfg.configPath, onCommandLine["config"], getenv)
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !named {
			return nil
		}
		return &settingsError{path: path, msg: fileProblem(err),
			hint: `create it, or use --config "" to run without a settings file`}
	}
	values, serr := parseSettings(path, data)
	if serr != nil {
		return serr
	}
	offline := cfg.demo || len(cfg.data.sources) > 0
	for _, v := range values {
		switch {
		case v.key == "pager":
			pager := v.text
			cfg.pager = &pager
		case onCommandLine[v.key], v.connection && offline, setInEnvironment(v.env, getenv):
		default:
			if err := flags.Set(v.key, v.text); err != nil {
				// Not expected: parseSettings checked the value with the same flag.
				return &settingsError{path: path, msg: fmt.Sprintf("%s: %v", v.key, err)}
			}
		}
	}
	return nil
}

// fileProblem says why the file cannot be read, without Go's "open PATH:".
func fileProblem(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file (a file named by --config or DDBSQL_CONFIG must exist)"
	}
	return err.Error()
}

func setInEnvironment(names []string, getenv func(string) (string, bool)) bool {
	for _, n := range names {
		if v, ok := getenv(n); ok && v != "" {
			return true
		}
	}
	return false
}

// settingValue is one key of the file, checked, as flag text.
type settingValue struct {
	setting
	text string
}

// parseSettings parses and checks the whole file; the first problem is
// returned with its line.
func parseSettings(path string, data []byte) ([]settingValue, *settingsError) {
	var raw map[string]toml.Primitive
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &settingsError{path: path, line: pe.Position.Line, msg: "not valid TOML: " + pe.Message}
		}
		return nil, &settingsError{path: path, msg: "not valid TOML: " + err.Error()}
	}
	scratch := newFlagSet(&config{}, io.Discard) // checks values without setting them
	var out []settingValue
	for _, k := range md.Keys() {
		if len(k) != 1 {
			continue // inside a table, which is itself reported as unknown
		}
		d := &settingDecoder{key: k[0], flags: scratch}
		if err := md.PrimitiveDecode(raw[k[0]], d); err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return nil, &settingsError{path: path, line: pe.Position.Line, msg: pe.Message}
			}
			return nil, &settingsError{path: path, msg: err.Error()}
		}
		out = append(out, d.value)
	}
	return out, nil
}

// settingDecoder checks one key's value as the TOML decoder hands it over;
// an error it returns comes back from the decoder with the key's line.
type settingDecoder struct {
	key   string
	flags *flag.FlagSet
	value settingValue
}

// UnmarshalTOML implements toml.Unmarshaler.
func (d *settingDecoder) UnmarshalTOML(v any) error {
	s, ok := lookupSetting(d.key)
	if _, table := v.(map[string]any); table && !ok {
		return fmt.Errorf("[%s]: the settings file has no sections; write its keys at the top, e.g. format = \"csv\"", d.key)
	}
	if !ok {
		return fmt.Errorf("unknown key %q; the keys are %s", d.key, settingKeys())
	}
	text, ok := settingText(s.kind, v)
	if !ok {
		return fmt.Errorf("%s must be %s, e.g. %s = %s", s.key, kindName(s.kind), s.key, s.example)
	}
	if s.choices != nil {
		canon, ok := choose(s.choices, text)
		if !ok {
			return fmt.Errorf("%s = %q: use one of %s", s.key, text, strings.Join(s.choices, ", "))
		}
		text = canon
	}
	if s.check != nil {
		if err := s.check(text); err != nil {
			return fmt.Errorf("%s = %q: %v", s.key, text, err)
		}
	}
	if f := d.flags.Lookup(s.key); f != nil {
		if err := f.Value.Set(text); err != nil {
			// A flag's error may be located at "--key value"; the file's
			// message names the key and value its own way.
			msg := err.Error()
			if de, ok := diag.As(err); ok {
				msg = de.Msg
			}
			return fmt.Errorf("%s = %s: %s", s.key, tomlText(s.kind, text), msg)
		}
	}
	d.value = settingValue{setting: s, text: text}
	return nil
}

func lookupSetting(key string) (setting, bool) {
	for _, s := range fileSettings {
		if s.key == key {
			return s, true
		}
	}
	return setting{}, false
}

func settingKeys() string {
	keys := make([]string, len(fileSettings))
	for i, s := range fileSettings {
		keys[i] = s.key
	}
	return strings.Join(keys, ", ")
}

// settingText turns a decoded TOML value into the text its flag takes.
func settingText(kind settingKind, v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, kind == kindString
	case bool:
		return strconv.FormatBool(x), kind == kindBool
	case int64:
		return strconv.FormatInt(x, 10), kind == kindNumber
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), kind == kindNumber
	}
	return "", false
}

func kindName(k settingKind) string {
	switch k {
	case kindNumber:
		return "a number"
	case kindBool:
		return "true or false"
	}
	return "a string in double quotes"
}

// tomlText writes a value back as it looks in the file.
func tomlText(k settingKind, text string) string {
	if k == kindString {
		return strconv.Quote(text)
	}
	return text
}

func choose(choices []string, text string) (string, bool) {
	for _, c := range choices {
		if strings.EqualFold(c, text) {
			return c, true
		}
	}
	return "", false
}

// checkEndpointURL wants what --endpoint-url takes: an http or https URL
// with a host.
func checkEndpointURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("want an http or https URL with a host, e.g. http://localhost:8000")
	}
	return nil
}
