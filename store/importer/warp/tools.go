package warp

// The tools of Message.ToolCall's oneof (task.proto, message ToolCall):
// each case's field number, its name, and the fields of its arguments
// that a transcript shows.
var fileContent = spec{1: s("file_path"), 2: s("content")}

var callTools = map[int]struct {
	name string
	args spec
}{
	2:  {"run_shell_command", spec{1: s("command")}},
	3:  {"search_codebase", spec{1: s("query"), 2: ss("path_filters"), 3: s("codebase_path")}},
	4:  {"server", spec{}},
	5:  {"read_files", spec{1: ms("files", spec{1: s("name")})}},
	6:  {"apply_file_diffs", spec{1: s("summary"), 2: ms("diffs", spec{1: s("file_path"), 2: s("search"), 3: s("replace")}), 3: ms("new_files", fileContent), 4: ms("deleted_files", spec{1: s("file_path")}), 5: ms("v4a_updates", spec{1: s("file_path"), 2: s("move_to"), 3: ms("hunks", spec{1: ss("change_context"), 2: s("pre_context"), 3: s("old"), 4: s("new"), 5: s("post_context")})})}},
	7:  {"suggest_plan", spec{1: s("summary")}},
	8:  {"suggest_create_plan", spec{}},
	9:  {"grep", spec{1: ss("queries"), 2: s("path")}},
	10: {"file_glob", spec{1: ss("patterns"), 2: s("path")}},
	11: {"read_mcp_resource", spec{1: s("uri"), 2: s("server_id")}},
	12: {"call_mcp_tool", spec{1: s("name"), 2: fspec{name: "args", kind: 'j'}, 3: s("server_id")}},
	13: {"write_to_long_running_shell_command", spec{1: s("input"), 3: s("command_id")}},
	14: {"suggest_new_conversation", spec{1: s("message_id")}},
	15: {"file_glob_v2", spec{1: ss("patterns"), 2: s("search_dir"), 3: v("max_matches"), 4: v("max_depth"), 5: v("min_depth")}},
	16: {"suggest_prompt", spec{}},
	17: {"open_code_review", spec{}},
	18: {"init_project", spec{}},
	19: {"subagent", spec{1: s("task_id"), 2: s("payload")}},
	20: {"read_documents", spec{1: ms("documents", spec{1: s("document_id")})}},
	21: {"edit_documents", spec{1: ms("diffs", spec{1: s("document_id"), 2: s("search"), 3: s("replace")})}},
	22: {"create_documents", spec{1: ms("new_documents", spec{1: s("content"), 2: s("title")})}},
	23: {"read_shell_command_output", spec{1: s("command_id")}},
	24: {"use_computer", spec{3: s("action_summary")}},
	25: {"insert_review_comments", spec{1: s("repo_path"), 3: s("base_branch")}},
	26: {"read_skill", spec{1: s("skill_path"), 2: s("bundled_skill_id"), 3: s("name")}},
	27: {"request_computer_use", spec{1: s("task_summary")}},
	28: {"fetch_conversation", spec{1: s("conversation_id")}},
	29: {"start_agent", spec{1: s("name"), 2: s("prompt")}},
	30: {"send_message_to_agent", spec{1: ss("addresses"), 2: s("subject"), 3: s("message")}},
	31: {"transfer_shell_command_control_to_user", spec{1: s("reason")}},
	32: {"ask_user_question", spec{1: ms("questions", spec{1: s("question_id"), 2: s("question"), 3: m("multiple_choice", spec{1: ms("options", spec{1: s("label")})})})}},
	33: {"start_agent_v2", spec{1: s("name"), 2: s("prompt")}},
	34: {"upload_file_artifact", spec{2: s("description")}},
	35: {"run_agents", spec{1: s("summary"), 2: s("base_prompt"), 4: s("model_id"), 8: ms("agent_run_configs", spec{1: s("name"), 2: s("prompt"), 3: s("title")})}},
}

// callNames is callTools' numbers and names, for pb.oneof.
var callNames = func() map[int]string {
	out := map[int]string{}
	for n, t := range callTools {
		out[n] = t.name
	}
	return out
}()

// resultNames are the cases of Message.ToolCallResult's oneof
// (task.proto, message ToolCallResult); cancel (14) is the person
// cancelling the call.
var resultNames = map[int]string{
	2: "run_shell_command", 3: "search_codebase", 4: "server", 5: "read_files", 6: "apply_file_diffs",
	7: "suggest_plan", 8: "suggest_create_plan", 9: "grep", 10: "file_glob", 14: "cancel",
	15: "read_mcp_resource", 16: "call_mcp_tool", 17: "write_to_long_running_shell_command",
	18: "suggest_new_conversation", 19: "file_glob_v2", 20: "suggest_prompt", 21: "open_code_review",
	22: "init_project", 23: "subagent", 24: "read_documents", 25: "edit_documents", 26: "create_documents",
	27: "read_shell_command_output", 28: "use_computer", 29: "insert_review_comments", 30: "read_skill",
	31: "request_computer_use", 32: "fetch_conversation", 33: "start_agent", 34: "send_message_to_agent",
	35: "transfer_shell_command_control_to_user", 36: "ask_user_question", 37: "start_agent_v2",
	38: "upload_file_artifact", 39: "run_agents",
}
