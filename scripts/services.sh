# The services `npm start` runs, each as "<app>:<http port>". An app appears here once it exists.
SERVICES=("gateway:3000")
SERVICES+=("contacts:3001")
SERVICES+=("webhook-dispatch:3006")
