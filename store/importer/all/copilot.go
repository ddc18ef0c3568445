package all

import _ "github.com/recall-dev/recall/store/importer/copilot" // registers the copilot-cli source
