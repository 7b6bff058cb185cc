package memory_test

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"testing"
)

// The README's Go quick start is the package's Example, so it compiles and
// its output is checked on every test run: its main must be the same code,
// comments and output included, as func Example in example_test.go, and it
// must import exactly the packages that code uses.
func TestREADMEQuickStartIsExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := goBlockAfter(t, readme, "## Go quick start")
	fset := token.NewFileSet()
	rf, err := parser.ParseFile(fset, "README.md", block, parser.ParseComments)
	if err != nil {
		t.Fatalf("the quick start does not parse: %v", err)
	}
	if formatted, err := format.Source(block); err != nil || !bytes.Equal(formatted, block) {
		t.Errorf("the quick start is not gofmt'd (%v):\n%s", err, formatted)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	ef, err := parser.ParseFile(fset, "example_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if rf.Name.Name != "main" {
		t.Errorf("the quick start is package %s, want main", rf.Name.Name)
	}
	main, example := funcNamed(rf, "main"), funcNamed(ef, "Example")
	if main == nil || example == nil {
		t.Fatalf("func main in the README: %v, func Example in example_test.go: %v", main != nil, example != nil)
	}
	if got, want := bodyText(fset, block, main), bodyText(fset, src, example); got != want {
		t.Errorf("the README's quick start differs from Example; make them the same.\nREADME:\n%s\nExample:\n%s", got, want)
	}

	var imported []string
	for _, im := range rf.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		imported = append(imported, path.Base(p))
	}
	used := map[string]bool{}
	ast.Inspect(main.Body, func(n ast.Node) bool {
		// A selector on an identifier the parser could not resolve in the
		// file is a package's: fmt.Println, memory.Open.
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, name := range imported {
		if !used[name] {
			t.Errorf("the quick start imports %s and does not use it", name)
		}
	}
	for name := range used {
		if !slices.Contains(imported, name) {
			t.Errorf("the quick start uses %s without importing it", name)
		}
	}
}

// goBlockAfter returns the first ```go block after the heading.
func goBlockAfter(t *testing.T, doc []byte, heading string) []byte {
	t.Helper()
	_, rest, ok := bytes.Cut(doc, []byte("\n"+heading+"\n"))
	if !ok {
		t.Fatalf("no heading %q", heading)
	}
	_, rest, ok = bytes.Cut(rest, []byte("```go\n"))
	if !ok {
		t.Fatalf("no go block after %q", heading)
	}
	block, _, ok := bytes.Cut(rest, []byte("\n```"))
	if !ok {
		t.Fatalf("the go block after %q does not end", heading)
	}
	return append(block, '\n')
}

func funcNamed(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// bodyText is the source of a function's body, comments and all.
func bodyText(fset *token.FileSet, src []byte, fd *ast.FuncDecl) string {
	return string(src[fset.Position(fd.Body.Lbrace).Offset:fset.Position(fd.Body.Rbrace).Offset])
}
