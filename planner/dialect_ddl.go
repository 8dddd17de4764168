package planner

import (
	"strconv"
	"strings"
)

// wrapperOrder is the order DDL declares a value's type-wrappers in.
var wrapperOrder = []string{"S", "N", "B", "BOOL", "NULL", "SS", "NS"}

// ddl renders a table's declaration: an Athena external table or a DuckDB
// view over the export's files.
func (r *dialectOut) ddl(t *TableDef) string {
	root := r.nodes[t.Name]
	loc, placeholder := r.location(t.Name)
	var sb strings.Builder
	name := r.tableName(t.Name)
	if placeholder {
		r.note("replace the LOCATION of %s with where its export is (--export-location %s=…)", name, t.Name)
	}
	if r.athena() {
		sb.WriteString("CREATE EXTERNAL TABLE IF NOT EXISTS " + name + " (\n")
		switch r.d.Source {
		case SourceParquet:
			r.parquetColumnsDDL(&sb, root)
			sb.WriteString(")\n")
			if parts := r.partitionDDL(root); parts != "" {
				sb.WriteString("PARTITIONED BY (" + parts + ")\n")
			}
			sb.WriteString("STORED AS PARQUET\n")
			sb.WriteString("LOCATION " + sqlString(loc) + ";\n")
			if len(r.d.PartitionBy) > 0 {
				sb.WriteString("-- load the partitions (or declare partition projection on " + strings.Join(r.d.PartitionBy, ", ") + "):\n")
				sb.WriteString("MSCK REPAIR TABLE " + name + ";\n")
			}
			return sb.String()
		case SourceIon:
			sb.WriteString("  Item " + r.athenaStruct(root, false) + "\n)\n")
			sb.WriteString("ROW FORMAT SERDE 'com.amazon.ionhiveserde.IonHiveSerDe'\n")
			sb.WriteString("STORED AS ION\n")
		default:
			sb.WriteString("  Item " + r.athenaStruct(root, true) + "\n)\n")
			sb.WriteString("ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'\n")
		}
		sb.WriteString("LOCATION " + sqlString(loc) + ";\n")
		return sb.String()
	}
	sb.WriteString("CREATE OR REPLACE VIEW " + name + " AS\nSELECT * FROM ")
	if r.d.Source == SourceParquet {
		// Partition values stay text, as Athena declares them.
		sb.WriteString("read_parquet(" + sqlString(loc) + ", hive_partitioning = true, hive_types_autocast = false);\n")
		return sb.String()
	}
	sb.WriteString("read_json(" + sqlString(loc) + ", format = 'newline_delimited', columns = {'Item': " +
		sqlString(r.duckStruct(root)) + "});\n")
	return sb.String()
}

// location is where the table's data is, or a placeholder to replace.
func (r *dialectOut) location(table string) (string, bool) {
	loc := r.d.Locations[table]
	if loc == "" {
		loc = r.d.DefaultLocation
	}
	if loc != "" {
		if !r.athena() && strings.HasSuffix(loc, "/") {
			// DuckDB reads files, not folders: the export's data files,
			// or every Parquet file of the layout.
			if r.d.Source == SourceParquet {
				return loc + "**/*.parquet", false
			}
			return loc + "*.json.gz", false
		}
		return loc, false
	}
	if loc := r.d.LocalLocations[table]; loc != "" && !r.athena() && r.d.Source == SourceJSON {
		return loc, false
	}
	switch {
	case r.d.Source == SourceParquet && r.athena():
		return "s3://BUCKET/PREFIX/" + table + "/", true
	case r.d.Source == SourceParquet:
		return table + "/**/*.parquet", true
	case r.athena():
		return "s3://BUCKET/PREFIX/AWSDynamoDB/EXPORT-ID/data/", true
	}
	return "EXPORT-DIR/AWSDynamoDB/EXPORT-ID/data/*.json.gz", true
}

// hiveName writes a name in Hive DDL, backquoted unless plain.
func hiveName(name string) string {
	if isSafeIdent(strings.ToLower(name)) && name != "NULL" && name != "BOOL" {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// athenaStruct declares the attributes below n as a Hive struct: with
// wrapped, each one a struct of DynamoDB's type-wrappers (JSON export);
// else the typed values themselves (Ion export).
func (r *dialectOut) athenaStruct(n *ddlNode, wrapped bool) string {
	fields := make([]string, 0, len(n.names))
	for _, name := range n.names {
		m := n.members[name]
		if wrapped {
			fields = append(fields, hiveName(name)+":"+r.athenaWrappers(m))
		} else {
			fields = append(fields, hiveName(name)+":"+r.athenaIonType(m))
		}
	}
	return "struct<" + strings.Join(fields, ", ") + ">"
}

func (r *dialectOut) athenaWrappers(n *ddlNode) string {
	var fields []string
	for _, w := range wrapperOrder {
		if !n.wrappers[w] {
			continue
		}
		t := "string"
		switch w {
		case "BOOL", "NULL":
			t = "boolean"
		case "SS", "NS":
			t = "array<string>"
		}
		fields = append(fields, hiveName(w)+":"+t)
	}
	if len(n.names) > 0 {
		fields = append(fields, "M:"+r.athenaStruct(n, true))
	}
	if n.elem != nil {
		fields = append(fields, "L:array<"+r.athenaWrappers(n.elem)+">")
	}
	return "struct<" + strings.Join(fields, ", ") + ">"
}

func (r *dialectOut) athenaIonType(n *ddlNode) string {
	switch {
	case len(n.names) > 0:
		return r.athenaStruct(n, false)
	case n.elem != nil:
		return "array<" + r.athenaIonType(n.elem) + ">"
	}
	return r.hiveScalar(n.leaf)
}

func (r *dialectOut) hiveScalar(lt leafType) string {
	switch lt {
	case leafN:
		return "decimal(38," + strconv.Itoa(r.scale) + ")"
	case leafBool:
		return "boolean"
	case leafB:
		return "binary"
	}
	return "string"
}

// duckStruct declares the attributes below n as a DuckDB STRUCT of
// type-wrapper STRUCTs (JSON export).
func (r *dialectOut) duckStruct(n *ddlNode) string {
	fields := make([]string, 0, len(n.names))
	for _, name := range n.names {
		fields = append(fields, duckName(name)+" "+r.duckWrappers(n.members[name]))
	}
	return "STRUCT(" + strings.Join(fields, ", ") + ")"
}

func (r *dialectOut) duckWrappers(n *ddlNode) string {
	var fields []string
	for _, w := range wrapperOrder {
		if !n.wrappers[w] {
			continue
		}
		t := "VARCHAR"
		switch w {
		case "BOOL", "NULL":
			t = "BOOLEAN"
		case "SS", "NS":
			t = "VARCHAR[]"
		}
		fields = append(fields, duckName(w)+" "+t)
	}
	if len(n.names) > 0 {
		fields = append(fields, `"M" `+r.duckStruct(n))
	}
	if n.elem != nil {
		fields = append(fields, `"L" `+r.duckWrappers(n.elem)+"[]")
	}
	return "STRUCT(" + strings.Join(fields, ", ") + ")"
}

func duckName(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// parquetColumnsDDL declares the Parquet layout's columns: each attribute
// the statement reads, typed as ddbsql writes it (numbers DECIMAL(38, s),
// documents as JSON text), partition columns aside.
func (r *dialectOut) parquetColumnsDDL(sb *strings.Builder, root *ddlNode) {
	var cols []string
	for _, name := range root.names {
		if r.isPartition(name) {
			continue
		}
		cols = append(cols, "  "+hiveName(name)+" "+r.hiveScalar(root.members[name].leaf))
	}
	sb.WriteString(strings.Join(cols, ",\n") + "\n")
}

// partitionDDL declares the partition columns: strings, as Hive folder
// names are.
func (r *dialectOut) partitionDDL(root *ddlNode) string {
	parts := make([]string, len(r.d.PartitionBy))
	for i, p := range r.d.PartitionBy {
		parts[i] = hiveName(p) + " string"
	}
	return strings.Join(parts, ", ")
}
