package cli

import (
	"fmt"
	"strings"
)

// The scripts are thin: each hands the words of the command line to
// `recall __complete -- WORD...` and offers what it prints (one candidate a
// line, "word<TAB>description"; ":files" asks for file names). The
// candidates (commands, each command's real flags, sources, session ids from
// the database named by --db or $RECALL_DB) are worked out in complete.go,
// once for all three shells.

const bashCompletion = `# recall completion for bash: add to ~/.bashrc
#   source <(recall completion bash)
_recall() {
    # bash splits words at : and = (COMP_WORDBREAKS): join them back, so
    # recall sees "codex:abc" and "--db=x" whole.
    local -a words=()
    local i w glue=0
    for ((i = 1; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if ((${#words[@]})) && [[ $w =~ ^[:=]+$ ]]; then
            words[-1]+=$w
            glue=1
        elif ((glue)); then
            words[-1]+=$w
            glue=0
        else
            words+=("$w")
        fi
    done
    ((${#words[@]})) || words=("")
    local cur=${words[-1]}
    # ...and replace only its own last piece of the word.
    local keep=${cur%"${COMP_WORDS[COMP_CWORD]}"}
    local IFS=$'\n' out line
    out=$(command recall __complete -- "${words[@]}" 2>/dev/null) || return
    COMPREPLY=()
    if [[ $out == ":files" ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
    fi
    for line in $out; do
        line=${line%%$'\t'*}
        COMPREPLY+=("${line#"$keep"}")
    done
}
complete -F _recall recall
`

const zshCompletion = `#compdef recall
# recall completion for zsh: add to ~/.zshrc (after compinit)
#   source <(recall completion zsh)
_recall() {
    local -a lines words_ descs
    local line
    lines=("${(@f)$(command recall __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if [[ ${lines[1]} == ":files" ]]; then
        _files
        return
    fi
    for line in $lines; do
        [[ -z $line ]] && continue
        words_+=("${line%%$'\t'*}")
        if [[ $line == *$'\t'* ]]; then
            descs+=("${line%%$'\t'*} -- ${line#*$'\t'}")
        else
            descs+=("${line}")
        fi
    done
    (( ${#words_} )) && compadd -Q -l -d descs -a words_
}
if (( $+functions[compdef] )); then
    compdef _recall recall
fi
`

const fishCompletion = `# recall completion for fish: save as ~/.config/fish/completions/recall.fish
#   recall completion fish > ~/.config/fish/completions/recall.fish
function __recall_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (command recall __complete -- $words[2..-1] 2>/dev/null)
    if test "$out[1]" = ":files"
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\n' $out
end
complete -c recall -f -a '(__recall_complete)'
`

func runCompletion(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	if err := fs.Parse(args); err != nil {
		return err
	}
	scripts := map[string]string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}
	if fs.NArg() != 1 {
		return usageError("name one shell: bash, zsh or fish")
	}
	s, ok := scripts[fs.Arg(0)]
	if !ok {
		return usageError("no completion for %q: want bash, zsh or fish", fs.Arg(0))
	}
	_, err := fmt.Fprint(env.Stdout, strings.TrimLeft(s, "\n"))
	return err
}
