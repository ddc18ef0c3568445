package all

import _ "github.com/recall-dev/recall/store/importer/grokcli" // registers the grok-cli source
