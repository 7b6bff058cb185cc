package memory

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// openStore opens a store in a fresh temporary directory, closed at the
// end of the test.
func openStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "m.db"), 0, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fields returns the leaf fields of the struct v by name, nested structs
// other than time.Time flattened as "Outer.Inner".
func fields(v reflect.Value, prefix string, out map[string]reflect.Value) map[string]reflect.Value {
	if out == nil {
		out = map[string]reflect.Value{}
	}
	for i := range v.NumField() {
		f, name := v.Field(i), prefix+v.Type().Field(i).Name
		if f.Kind() == reflect.Struct && f.Type() != reflect.TypeFor[time.Time]() {
			fields(f, name+".", out)
			continue
		}
		out[name] = f
	}
	return out
}

// Fields is fields for the tests of package memory_test: the leaf fields
// of the struct v.
func Fields(v any) map[string]reflect.Value { return fields(reflect.ValueOf(v), "", nil) }
