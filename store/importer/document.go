package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DocumentLines turns a JSON document that holds its records in one array
// (an Amp thread's "messages", an Auggie session's "chatHistory") into
// lines for ImportWhole: the document without that array first, then one
// compact line per element. what names the format in the error for a
// document without the array ("an Amp thread").
func DocumentLines(raw []byte, array, what string) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s", DecodeProblem(err))
	}
	if _, ok := doc[array]; !ok {
		return nil, fmt.Errorf("%s: not %s", MissingField("the document", array, raw), what)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(doc[array], &items); err != nil {
		return nil, fmt.Errorf("%s: %s", array, DecodeProblem(err))
	}
	delete(doc, array)
	var buf bytes.Buffer
	head, _ := json.Marshal(doc)
	buf.Write(head)
	buf.WriteByte('\n')
	for _, it := range items {
		if err := json.Compact(&buf, it); err != nil {
			return nil, err
		}
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}
