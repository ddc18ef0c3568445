package all

import _ "github.com/recall-dev/recall/store/importer/qwen" // registers the qwen-code source
