package all

import _ "github.com/recall-dev/recall/store/importer/dsh" // registers the deepseek-harness source
