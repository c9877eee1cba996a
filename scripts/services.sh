# Written by scripts/generate-manifests.ts from libs/config/src/services.ts: edit those, not this.
# The services `npm start` runs, each as
# "<app>:<http port>:<database schema>:<memory limit in MiB>:<its heap's Node options>".
SERVICES=(
  "gateway:3000:gateway:512:--max-old-space-size=384 --max-semi-space-size=16"
  "contacts:3001:contacts:512:--max-old-space-size=384 --max-semi-space-size=16"
  "webhook-dispatch:3006:webhook_dispatch:512:--max-old-space-size=384 --max-semi-space-size=16"
  "messaging:3007:messaging:512:--max-old-space-size=384 --max-semi-space-size=16"
  "segments:3008:segments:1024:--max-old-space-size=768 --max-semi-space-size=16"
  "automations:3009:automations:512:--max-old-space-size=384 --max-semi-space-size=16"
  "broadcasts:3010:broadcasts:512:--max-old-space-size=384 --max-semi-space-size=16"
)
