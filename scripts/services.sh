# Written by scripts/generate-manifests.ts from libs/config/src/services.ts: edit those, not this.
# The services `npm start` runs, each as "<app>:<http port>:<database schema>:<memory limit in MiB>".
SERVICES=(
  "gateway:3000:gateway:512"
  "contacts:3001:contacts:512"
  "webhook-dispatch:3006:webhook_dispatch:512"
  "messaging:3007:messaging:512"
  "segments:3008:segments:1024"
  "automations:3009:automations:512"
  "broadcasts:3010:broadcasts:512"
)
