package all

import _ "github.com/recall-dev/recall/store/importer/continuecli" // registers the continue-cli source
