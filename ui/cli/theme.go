package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/assets"
)

// pickTheme resolves --theme: "light" or "dark" as given; "auto" (the
// default) reads the terminal's background from $COLORFGBG ("fg;bg", set
// by rxvt, Konsole, iTerm2 and others: background 7 or 9-15 is light).
// recall does not query the terminal (OSC 11): an unanswered query is the
// start-up stall fixed earlier. Without a hint the theme is dark.
func pickTheme(flag, colorfgbg string) (string, error) {
	switch flag {
	case "light", "dark":
		return flag, nil
	case "", "auto":
	default:
		return "", usageError("--theme %q: want auto, light or dark", flag)
	}
	parts := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if colorfgbg == "" || err != nil {
		return "dark", nil
	}
	if bg == 7 || bg >= 9 && bg <= 15 {
		return "light", nil
	}
	return "dark", nil
}

// themeStyle is the pinned markdown style of a theme.
func themeStyle(theme string) ([]byte, error) {
	if theme == "light" {
		b, err := assets.Style("recall-light")
		if err != nil {
			return nil, fmt.Errorf("light theme: %w", err)
		}
		return b, nil
	}
	return tuiStyle()
}
