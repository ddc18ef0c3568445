package all

import _ "github.com/recall-dev/recall/store/importer/copilotchat" // registers the copilot-chat source
