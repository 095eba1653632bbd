package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"runtime"
)

// Identity names the running binary for the cache: its Go build id (which
// the go command derives from every input of the build, so a binary built
// from other sources, or by another toolchain, has another), prefixed with
// the Go version and extra (the caller's version and formats, for a
// reader of the entries). A binary without a build id is named by the
// sha256 of its bytes instead, slower but as exact. An error means the
// binary cannot be read: then nothing should be cached.
func Identity(extra string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	id, err := buildID(exe)
	if err != nil || id == "" {
		if id, err = fileSum(exe); err != nil {
			return "", err
		}
		id = "sha256:" + id
	}
	return runtime.Version() + " " + extra + " " + id, nil
}

// buildID reads the Go build id of the executable at exe: from its ELF
// note (.note.go.buildid), or from the marker the linker puts at the start
// of the text of other formats, looked for in the file's first 64 KiB.
func buildID(exe string) (string, error) {
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			return noteID(s)
		}
		return "", errors.New("no Go build id note")
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	const marker = "\xff Go build ID: \""
	_, after, ok := bytes.Cut(head[:n], []byte(marker))
	if !ok {
		return "", errors.New("no Go build id")
	}
	id, _, ok := bytes.Cut(after, []byte("\"\n \xff"))
	if !ok {
		return "", errors.New("no Go build id")
	}
	return string(id), nil
}

// noteID reads the build id out of the ELF note: a name size, a
// description size and a type (4 bytes each), the name "Go\0\0", then
// the id.
func noteID(s *elf.Section) (string, error) {
	data, err := s.Data()
	if err != nil {
		return "", err
	}
	if len(data) < 16 || string(data[12:16]) != "Go\x00\x00" {
		return "", errors.New("malformed Go build id note")
	}
	return string(bytes.TrimRight(data[16:], "\x00")), nil
}

func fileSum(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
