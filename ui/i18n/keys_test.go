package i18n

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

// TestEveryMessageKeyTranslated: every message key that model/, data/ and
// the command line write as a literal — the key of model.Msg, the format
// of model.Errorf and config.Errorf, of a market filter error and of the
// packages' bad/badValue/fail helpers — has a Chinese translation, so an
// error reaches a Chinese user in Chinese by its key alone (issue 31:
// nothing is matched against English text at print time, so a key
// without a translation would print in English). Keys whose words are
// all names, units and flags (DefaultAllowlist) need none.
func TestEveryMessageKeyTranslated(t *testing.T) {
	msgs, err := zhMessages()
	if err != nil {
		t.Fatal(err)
	}
	allow := DefaultAllowlist()
	fset := token.NewFileSet()
	found := 0
	for _, root := range []string{"../../model", "../../data", "../cli"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "internal" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				key, ok := messageKey(call)
				if !ok || len(Leaks(stripVerbs(key), allow)) == 0 {
					return true
				}
				found++
				if _, ok := msgs[key]; !ok {
					t.Errorf("%s: %q has no Chinese in zh-CN.toml", fset.Position(call.Pos()), key)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found < 500 {
		t.Fatalf("only %d message keys found: the walk misses the call sites", found)
	}
}

// messageKey is the literal message key of a call that makes a message:
// Msg(key, ...), Errorf(kind or config key, format, ...), BadFilter(format,
// ...) and the packages' bad, badValue and fail helpers (format first or
// after a field name).
func messageKey(call *ast.CallExpr) (string, bool) {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		name = fn.Name
	case *ast.SelectorExpr:
		name = fn.Sel.Name
	default:
		return "", false
	}
	var args []ast.Expr
	switch name {
	case "Msg", "BadFilter", "badValue", "fail":
		args = call.Args[:min(len(call.Args), 1)]
	case "Errorf":
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.X.(*ast.Ident).Name == "fmt" {
			return "", false // fmt's: a build tool's, not a message
		}
		args = call.Args[min(len(call.Args), 1):min(len(call.Args), 2)]
	case "bad":
		args = call.Args[:min(len(call.Args), 2)]
	default:
		return "", false
	}
	for _, a := range args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		s, err := strconv.Unquote(lit.Value)
		// bad(field, format): a field name has no space and no verb.
		if err == nil && (name != "bad" || strings.ContainsAny(s, " %")) {
			return s, true
		}
	}
	return "", false
}
