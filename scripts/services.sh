# Written by scripts/generate-manifests.ts from libs/config/src/services.ts: edit those, not this.
# The services `npm start` runs, each as "<app>:<http port>:<database schema>".
SERVICES=(
  "gateway:3000:gateway"
  "contacts:3001:contacts"
  "webhook-dispatch:3006:webhook_dispatch"
  "messaging:3007:messaging"
  "segments:3008:segments"
  "automations:3009:automations"
  "broadcasts:3010:broadcasts"
)
