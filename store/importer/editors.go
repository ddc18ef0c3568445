package importer

import (
	"os"
	"path/filepath"
	"runtime"
)

// Editors are the VS Code family of editors whose User folder holds
// extensions' globalStorage and workspaceStorage: VS Code, its Insiders
// build, VSCodium, Cursor and Windsurf.
var Editors = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"}

// EditorUserDir is an editor's User folder on this OS ("Code" ->
// ~/.config/Code/User on Linux, $XDG_CONFIG_HOME first; ~/Library/Application
// Support/Code/User on macOS; %APPDATA%\Code\User on Windows); "" when no
// home directory is known.
func EditorUserDir(editor string) string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", editor, "User")
	case "windows":
		if d := os.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, editor, "User")
		}
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, editor, "User")
	}
	return filepath.Join(home, ".config", editor, "User")
}

// EditorGlobalStorage lists the globalStorage folders of the extension
// ext that exist in the editors' User folders.
func EditorGlobalStorage(ext string) []string {
	var out []string
	for _, editor := range Editors {
		if u := EditorUserDir(editor); u != "" {
			if p := filepath.Join(u, "globalStorage", ext); IsDir(p) {
				out = append(out, p)
			}
		}
	}
	return out
}
