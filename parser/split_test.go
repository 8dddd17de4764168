package parser

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Piece
	}{
		{"empty", "", nil},
		{"blank", " \n\t\r\n", nil},
		{"only semicolons", ";;  ;\n;", nil},
		{"one without semicolon", "SELECT 1", []Piece{{"SELECT 1", 0}}},
		{"one with semicolon", "SELECT 1;", []Piece{{"SELECT 1", 0}}},
		{"trimmed", "  SELECT 1 ;  ", []Piece{{"SELECT 1", 2}}},
		{"two", "SELECT 1; SELECT 2", []Piece{{"SELECT 1", 0}, {"SELECT 2", 10}}},
		{"empty between", "SELECT 1;;\n;SELECT 2;", []Piece{{"SELECT 1", 0}, {"SELECT 2", 12}}},
		{"single quotes", "SELECT 'a;b'; SELECT 2", []Piece{{"SELECT 'a;b'", 0}, {"SELECT 2", 14}}},
		{"doubled quote", "SELECT 'it''s;x'; SELECT 2", []Piece{{"SELECT 'it''s;x'", 0}, {"SELECT 2", 18}}},
		{"backslash quote", `SELECT 'a\';b'; SELECT 2`, []Piece{{`SELECT 'a\';b'`, 0}, {"SELECT 2", 16}}},
		{"backslash backslash", `SELECT 'a\\'; SELECT 2`, []Piece{{`SELECT 'a\\'`, 0}, {"SELECT 2", 14}}},
		{"double quotes", `SELECT "a;""b"; SELECT 2`, []Piece{{`SELECT "a;""b"`, 0}, {"SELECT 2", 16}}},
		{"backticks", "SELECT `a;``b` FROM t; SELECT 2", []Piece{{"SELECT `a;``b` FROM t", 0}, {"SELECT 2", 23}}},
		{"dash comment", "SELECT 1 -- a;b\n; SELECT 2", []Piece{{"SELECT 1 -- a;b", 0}, {"SELECT 2", 18}}},
		{"hash comment", "SELECT 1 # a;b\n; SELECT 2", []Piece{{"SELECT 1 # a;b", 0}, {"SELECT 2", 17}}},
		{"block comment", "SELECT 1 /* a;\nb */; SELECT 2", []Piece{{"SELECT 1 /* a;\nb */", 0}, {"SELECT 2", 21}}},
		{"comment-only pieces dropped", "-- hello;\n; /* x */ ; # y\nSELECT 1", []Piece{{"# y\nSELECT 1", 22}}},
		{"leading comment kept", "/* a */ SELECT 1", []Piece{{"/* a */ SELECT 1", 0}}},
		{"unterminated string runs to end", "SELECT 'a; SELECT 2", []Piece{{"SELECT 'a; SELECT 2", 0}}},
		{"unterminated comment runs to end", "SELECT 1 /* ; SELECT 2", []Piece{{"SELECT 1 /* ; SELECT 2", 0}}},
		{"multibyte", "SELECT 'é;ü'; SELECT `ß`", []Piece{{"SELECT 'é;ü'", 0}, {"SELECT `ß`", 16}}},
		{"crlf", "SELECT 1;\r\nSELECT 2;\r\n", []Piece{{"SELECT 1", 0}, {"SELECT 2", 11}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.input)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Split(%q)\n got %+v\nwant %+v", tt.input, got, tt.want)
			}
			for _, p := range got {
				if tt.input[p.Start:p.Start+len(p.Text)] != p.Text {
					t.Errorf("piece %q is not at offset %d", p.Text, p.Start)
				}
			}
		})
	}
}
