package all

import _ "github.com/recall-dev/recall/store/importer/chatgpt" // registers the chatgpt source
