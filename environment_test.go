package memory_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The library reads no environment variable: a program configures it with
// values, and memctl maps its own flags and environment onto them. Only
// cmd/ and bench/ (programs) and tests may read the environment.
func TestLibraryReadsNoEnvironment(t *testing.T) {
	// Calls that read the environment, by import path; envconfig is
	// Ollama's reader of $OLLAMA_HOST and the like.
	banned := map[string]map[string]bool{
		"os":                                 {"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true},
		"syscall":                            {"Getenv": true, "Environ": true},
		"github.com/ollama/ollama/envconfig": nil, // any use
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch path {
			case "cmd", "bench", "testdata":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		names := map[string]string{} // local name → import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if _, ok := banned[p]; !ok {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			if banned[p] == nil || name == "." {
				t.Errorf("%s imports %s", fset.Position(im.Pos()), p)
				continue
			}
			names[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && banned[names[id.Name]][sel.Sel.Name] {
				t.Errorf("%s: %s.%s reads the environment", fset.Position(sel.Pos()), names[id.Name], sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("test is void: only %d library files checked", checked)
	}
}
