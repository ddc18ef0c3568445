package all

import _ "github.com/recall-dev/recall/store/importer/cursoragent" // registers the cursor-agent source
