package ui

import "testing"

func TestDescribeToolCalls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[{"id":"c1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"docker network ls\",\"description\":\"list\"}"}}]`, "Bash docker network ls"},
		{`[{"function":{"name":"Read","arguments":"{\"file_path\":\"/etc/hosts\"}"}},{"function":{"name":"Grep","arguments":"{\"pattern\":\"TODO\"}"}}]`, "Read /etc/hosts · Grep TODO"},
		{`[{"name":"delegate_task","input":{"goal":"find the leak"}}]`, "delegate_task find the leak"},
		{`[{"function":{"name":"todo_write","arguments":"{\"todos\":[1]}"}}]`, `todo_write {"todos":[1]}`},
		{`[{"function":{"name":"noop","arguments":""}}]`, "noop"},
		{`not json at all`, "not json at all"},
		{`[{"weird":1}]`, `[{"weird":1}]`},
	} {
		if got := describeToolCalls(tc.in); got != tc.want {
			t.Errorf("describeToolCalls(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A folded call's arguments are decoded for display (issue 32: the folded
// Edit showed `\"$NET\"`): strings as the agent passed them, on one line.
func TestFlatToolCallsDecoded(t *testing.T) {
	raw := `[{"function":{"name":"Edit","arguments":"{\"file_path\": \"dev-up.sh\", \"new_string\": \"NET=x\\ndocker network inspect \\\"$NET\\\"\"}"}}]`
	want := `Edit file_path=dev-up.sh new_string=NET=x docker network inspect "$NET"`
	if got := flatToolCalls(raw); got != want {
		t.Errorf("flatToolCalls = %q, want %q", got, want)
	}
}
