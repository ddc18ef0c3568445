package warp

import (
	"fmt"
	"strings"
)

// resultText renders one ToolCallResult case (its field number and
// message, task.proto): what the tool gave back, and whether it failed.
// The results' messages are read from the .proto: most are a oneof of
// success = 1 and error = 2 ({message = 1}).
func resultText(num int, b pb) (string, bool) {
	switch num {
	case 2: // RunShellCommandResult: command = 3, long_running_command_snapshot = 4, command_finished = 5, permission_denied = 6; output = 1 and exit_code = 2 before command_finished
		return shellResult(b, 4, 5, 0)
	case 17, 35: // WriteToLongRunningShellCommandResult, TransferShellCommandControlToUserResult: snapshot = 1, command_finished = 2, error = 3
		return shellResult(b, 1, 2, 3)
	case 27: // ReadShellCommandOutputResult: command = 1, snapshot = 2, command_finished = 3, error = 4
		return shellResult(b, 2, 3, 4)
	case 14:
		return "[canceled]", true
	}
	if e, ok := failure(num, b); ok {
		return e, true
	}
	ok, _ := b.msg(1) // success
	switch num {
	case 3: // SearchCodebaseResult.Success: files = 1 (FileContent)
		return files(ok.all(1)), false
	case 5: // ReadFilesResult: text_files_success = 1 {files = 1}, any_files_success = 3 {files = 1: AnyFileContent, binary_content = 5 {file_path = 1}, text_content = 6}
		if any, has := b.msg(3); has {
			var parts []string
			for _, f := range any.all(1) {
				if t, has := f.msg(6); has {
					parts = append(parts, files([]pb{t}))
				} else if bin, has := f.msg(5); has {
					parts = append(parts, bin.str(1)+"\n[binary]")
				}
			}
			return strings.Join(parts, "\n\n"), false
		}
		return files(ok.all(1)), false
	case 6: // ApplyFileDiffsResult.Success: updated_files = 1 (FileContent), updated_files_v2 = 2 {file = 1}, deleted_files = 3 {file_path = 1}
		var lines []string
		for _, f := range ok.all(1) {
			lines = append(lines, "updated "+f.str(1))
		}
		for _, u := range ok.all(2) {
			f, _ := u.msg(1)
			lines = append(lines, "updated "+f.str(1))
		}
		for _, d := range ok.all(3) {
			lines = append(lines, "deleted "+d.str(1))
		}
		return strings.Join(lines, "\n"), false
	case 7: // SuggestPlanResult: accepted = 1, user_edited_plan = 2 {plan_text = 1}
		if p, has := b.msg(2); has {
			return p.str(1), false
		}
		return "accepted", false
	case 9: // GrepResult.Success: matched_files = 1 {file_path = 1, matched_lines = 2 {line_number = 1}}
		var lines []string
		for _, f := range ok.all(1) {
			var nums []string
			for _, l := range f.all(2) {
				nums = append(nums, fmt.Sprint(l.varint(1)))
			}
			line := f.str(1)
			if len(nums) > 0 {
				line += ":" + strings.Join(nums, ",")
			}
			lines = append(lines, line)
		}
		return strings.Join(lines, "\n"), false
	case 10: // FileGlobResult.Success: matched_files = 1 (one string)
		return ok.str(1), false
	case 19: // FileGlobV2Result.Success: matched_files = 1 {file_path = 1}, warnings = 2
		var lines []string
		for _, f := range ok.all(1) {
			lines = append(lines, f.str(1))
		}
		if w := ok.str(2); w != "" {
			lines = append(lines, w)
		}
		return strings.Join(lines, "\n"), false
	case 15: // ReadMCPResourceResult.Success: contents = 1 (MCPResourceContent)
		var parts []string
		for _, c := range ok.all(1) {
			parts = append(parts, resourceText(c))
		}
		return strings.Join(parts, "\n\n"), false
	case 16: // CallMCPToolResult.Success: results = 1 {text = 1 {text = 1}, image = 2, resource = 3}
		var parts []string
		for _, r := range ok.all(1) {
			switch {
			case r.has(1):
				t, _ := r.msg(1)
				parts = append(parts, t.str(1))
			case r.has(2):
				parts = append(parts, "[image]")
			case r.has(3):
				res, _ := r.msg(3)
				parts = append(parts, resourceText(res))
			}
		}
		return strings.Join(parts, "\n"), false
	case 23: // SubagentResult: payload = 1
		return b.str(1), false
	case 30: // ReadSkillResult.Success: content = 1 (FileContent)
		c, _ := ok.msg(1)
		return files([]pb{c}), false
	case 33, 37: // StartAgentResult.Success: agent_id = 1
		return ok.str(1), false
	case 36: // AskUserQuestionResult.Success: answers = 1 {question_id = 1, multiple_choice = 2 {selected_options = 1, other_text = 2}, skipped = 3}
		var lines []string
		for _, a := range ok.all(1) {
			mc, has := a.msg(2)
			switch {
			case has:
				lines = append(lines, strings.Join(append(mc.strs(1), mc.str(2)), " "))
			case a.has(3):
				lines = append(lines, "[skipped]")
			}
		}
		return strings.TrimSpace(strings.Join(lines, "\n")), false
	}
	return "", false
}

// failure reads the case's error, where its message has one: error = 2
// {message = 1} for most; StartAgent's is {error = 1}; InsertReviewComments'
// and RequestComputerUse's error is 3 (rejected = 2), RunAgents' failure 3
// (denied = 2 {reason = 1}).
func failure(num int, b pb) (string, bool) {
	switch num {
	case 29: // InsertReviewCommentsResult: repo_path = 1, success = 2, error = 3
		if e, ok := b.msg(3); ok {
			return e.str(1), true
		}
		return "", false
	case 31: // RequestComputerUseResult: approved = 1, rejected = 2, error = 3
		if e, ok := b.msg(3); ok {
			return e.str(1), true
		}
		if b.has(2) {
			return "[rejected]", true
		}
		return "", false
	case 39: // RunAgentsResult: launched = 1, denied = 2 {reason}, failure = 3 {error}
		for _, n := range []int{3, 2} {
			if e, ok := b.msg(n); ok {
				return e.str(1), true
			}
		}
		return "", false
	case 4, 8, 18, 20, 21, 22, 23: // no error case
		return "", false
	}
	if e, ok := b.msg(2); ok {
		if t := e.str(1); t != "" {
			return t, true
		}
		return "[error]", true
	}
	return "", false
}

// shellResult reads a shell command's result: ShellCommandFinished
// (output = 1, exit_code = 2) at finished, a long-running command's
// snapshot at snapshot, ShellCommandError at errNum; a RunShellCommandResult
// may carry output and exit_code itself (its older form) or
// permission_denied (6).
func shellResult(b pb, snapshot, finished, errNum int) (string, bool) {
	if f, ok := b.msg(finished); ok {
		return exited(f.str(1), int32(f.varint(2)))
	}
	if errNum != 0 && b.has(errNum) {
		return "[command not found]", true
	}
	if errNum == 0 && b.has(6) {
		return "[permission denied]", true
	}
	if b.has(snapshot) {
		return "[still running]", false
	}
	if errNum == 0 {
		return exited(b.str(1), int32(b.varint(2)))
	}
	return "", false
}

func exited(output string, code int32) (string, bool) {
	if code != 0 {
		return strings.TrimRight(output, "\n") + fmt.Sprintf("\n[exit code %d]", code), true
	}
	return output, false
}

// files renders FileContents (file_path = 1, content = 2) as each path
// and its text.
func files(fs []pb) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, strings.TrimRight(f.str(1)+"\n"+f.str(2), "\n"))
	}
	return strings.Join(parts, "\n\n")
}

// resourceText renders an MCPResourceContent: uri = 1, text = 2
// {content = 1}, binary = 3.
func resourceText(c pb) string {
	if t, ok := c.msg(2); ok {
		return t.str(1)
	}
	return c.str(1) + " [binary]"
}
