package all

import _ "github.com/recall-dev/recall/store/importer/aider" // registers the aider source
