package readlimit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(path, 9); err == nil || err.Error() != path+" is larger than the limit of 9 bytes" {
		t.Errorf("over the limit: %v", err)
	}
	// A device is refused before it is read (it never ends).
	if _, err := ReadFile("/dev/zero", 64<<20); err == nil || err.Error() != "/dev/zero is a character device, not a regular file" {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 1); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
