package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular file
// (a named pipe, a device such as /dev/zero, a socket), directly or through
// a symlink: opening a pipe blocks until a writer comes and a device never
// ends, so importers read regular files only.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: not read", e.Path, modeName(e.Mode))
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "a special file"
}

// checkRegular returns a *NotRegularError unless fi is a regular file.
func checkRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: fi.Mode()}
}

// OpenRegular opens path for reading when it is (or a symlink leads to) a
// regular file, and fails at once otherwise: it never blocks on a named
// pipe (see openNoBlock).
func OpenRegular(path string) (*os.File, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err // an *fs.PathError: "open PATH: permission denied"
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if err := checkRegular(path, fi); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openFile is openNoBlock, replaced in tests (a permission error as root).
var openFile = openNoBlock

// StatRegular is os.Stat that also fails for anything but a regular file.
func StatRegular(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err // an *fs.PathError naming path
	}
	return fi, checkRegular(path, fi)
}

// fileErrMsg is err as a problem of file f, without f said twice ("f: open
// f: permission denied" becomes "f: open: permission denied").
func fileErrMsg(f string, err error) string {
	var nr *NotRegularError
	if errors.As(err, &nr) && nr.Path == f {
		return "is " + modeName(nr.Mode) + ", not a regular file: not read"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == f && pe.Error() == err.Error() {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
