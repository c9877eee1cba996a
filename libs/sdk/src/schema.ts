// GENERATED FILE, do not edit: the types of the gateway's OpenAPI document, written by
// scripts/generate-sdk.mjs with openapi-typescript 7.13.0. Regenerate after changing the API:
//   node scripts/build.mjs --no-typecheck && node scripts/generate-sdk.mjs
// (`npm test` runs it with --check, which fails while this file differs from the document.)

export interface paths {
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness */
    get: operations['HealthController_health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness */
    get: operations['HealthController_ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics */
    get: operations['HealthController_metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a workspace
     * @description Operator token only. `plan` is one of starter, pro, business, agency.
     */
    post: operations['AdminController_createWorkspace'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/workspaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Rename a workspace or change its plan
     * @description Only the fields sent change (a `null` `name` or `plan` is 422). A plan change applies to every request recorded after it, on every gateway replica.
     */
    patch: operations['AdminController_updateWorkspace'];
    trace?: never;
  };
  '/admin/v1/workspaces/{id}/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an API key for a workspace
     * @description `permissions` is a non-empty subset of read, create, update, delete, each once. The key itself is in this answer only: it is stored as its hash.
     */
    post: operations['AdminController_createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/admin/v1/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete an API key
     * @description The key is refused (401) from then on, on every gateway replica within 5 seconds. A key already deleted is 404.
     */
    delete: operations['AdminController_deleteApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/api-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The API key of the request
     * @description The key this request was made with (its id, name and permissions, never its secret) and its workspace. Any key may ask, whatever its permissions; a plan without API access is 403.
     */
    get: operations['CurrentKeyController_current'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events
     * @description Newest first (by time of receipt). Needs the `read` permission.
     */
    get: operations['ContactsApiController_listEvents'];
    put?: never;
    /**
     * Record an event
     * @description Records that something happened to a contact and starts every active workflow listening for the name. The contact is matched by phone, then external_id, then email, and created when none matches; the values sent update it (newer values win). Needs the `create` permission; every plan may send events (counted in their own budget of 1,200 a minute). A repeated Idempotency-Key answers 200 with the original event and records nothing again, even when the body differs.
     */
    post: operations['ContactsApiController_recordEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/upsert': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or update a contact
     * @description Matches the contact by phone, then external_id, then email (within the workspace) and updates it, or creates one: 201 when created, 200 when updated. An identifier another contact holds moves to this one. `data` is merged key by key. Needs the `create` permission; a new contact past the plan’s stored-contacts limit is 422 at `/data/attributes/contact`.
     */
    post: operations['ContactsApiController_upsertContact'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/batch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create or update contacts in a batch
     * @description Up to 1,000 contacts, each an upsert of its own applied in order. Always 200 when the body is valid: each element succeeds (201 created, 200 updated) or fails alone (its own status and errors, pointing into `/data/attributes/contacts/<index>`). Contacts are answered without `data` and `tags`. Needs the `create` permission.
     */
    post: operations['ContactsApiController_batchUpsert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List contacts
     * @description Oldest first (by id). Needs the `read` permission.
     */
    get: operations['ContactsApiController_listContacts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/{contact_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a contact
     * @description Needs the `read` permission.
     */
    get: operations['ContactsApiController_getContact'];
    /**
     * Update a contact
     * @description Names its contact by id and matches no other: a phone, external_id or email that another contact of the workspace holds is refused (422 with a pointer to each such field, such as `/data/attributes/email`) and nothing changes. To move an identifier, upsert with it. Only the fields sent change; `data` is merged key by key. Needs the `update` permission.
     */
    put: operations['ContactsApiController_updateContact'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/contacts/{contact_id}/channels/{channel}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Link a channel id to a contact
     * @description Stores the contact’s id on `channel` (telegram, messenger, instagram or browser_push; any other is 404). The id is moved from any other contact of the workspace that held it. Needs the `update` permission.
     */
    put: operations['ContactsApiController_linkChannel'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List tags
     * @description Oldest first (by id); no filters. Needs the `read` permission.
     */
    get: operations['ContactsApiController_listTags'];
    put?: never;
    /**
     * Create a tag
     * @description A name another tag of the workspace has is 422. Needs the `create` permission.
     */
    post: operations['ContactsApiController_createTag'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/sync': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace the tags of a contact
     * @description Replaces every tag of the contact with `tag_ids`. A contact holds at most 1,000 tags (more → 422 at `/data/attributes/tag_ids`). A `contact_id` or tag id that names nothing in the workspace is 422 at its pointer. Needs the `update` permission.
     */
    post: operations['ContactsApiController_syncTags'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/attach': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add tags to a contact
     * @description Adds `tag_ids` to the contact, keeping the tags it has. A contact holds at most 1,000 tags (more → 422 at `/data/attributes/tag_ids`). A `contact_id` or tag id that names nothing in the workspace is 422 at its pointer. Needs the `update` permission.
     */
    post: operations['ContactsApiController_attachTags'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/detach': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Remove tags from a contact
     * @description Removes `tag_ids` from the contact. A `contact_id` or tag id that names nothing in the workspace is 422 at its pointer. Needs the `update` permission.
     */
    post: operations['ContactsApiController_detachTags'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tags/{tag_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a tag
     * @description Needs the `read` permission.
     */
    get: operations['ContactsApiController_getTag'];
    put?: never;
    post?: never;
    /**
     * Delete a tag
     * @description Detaches it from every contact. Needs the `delete` permission.
     */
    delete: operations['ContactsApiController_deleteTag'];
    options?: never;
    head?: never;
    /**
     * Update a tag
     * @description Only the fields sent change. Needs the `update` permission.
     */
    patch: operations['ContactsApiController_updateTag'];
    trace?: never;
  };
  '/api/v1/webhook-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhook endpoints
     * @description Never their secrets.
     */
    get: operations['WebhookEndpointsApiController_list'];
    put?: never;
    /**
     * Create a webhook endpoint
     * @description An https URL on your server, an optional description and the event kinds it receives (see `webhooks`). Business and agency plans (others → 403). The answer shows the signing secret: it is never shown again. A URL that is not https, has no real host, carries user information, or names an address that is not public → 422 at `/data/attributes/url`; a workspace has at most 100 endpoints (→ 422). An endpoint receives the events that happen after it was made.
     */
    post: operations['WebhookEndpointsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhook-endpoints/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a webhook endpoint
     * @description Never its secret.
     */
    get: operations['WebhookEndpointsApiController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description With its deliveries and their attempts; nothing more is sent to it.
     */
    delete: operations['WebhookEndpointsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint
     * @description Only the fields sent change (a `null` description clears it). `enabled: true` switches a switched-off endpoint back on and resets its failure count (the deliveries held meanwhile go out); `enabled: false` switches it off (`disabled_reason: manual`).
     */
    patch: operations['WebhookEndpointsApiController_update'];
    trace?: never;
  };
  '/api/v1/webhook-endpoints/{id}/roll-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Roll the signing secret
     * @description Makes a new secret, shown only in this answer. For 24 hours every delivery carries a second `v1=` signature made with the previous secret, so a receiver keeps verifying while it switches. Takes no body.
     */
    post: operations['WebhookEndpointsApiController_rollSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhook-endpoints/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an endpoint's deliveries
     * @description Newest first, each with every attempt and the answer your server gave (cut to 16 KiB). Test deliveries included.
     */
    get: operations['WebhookEndpointsApiController_deliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Redeliver a delivery
     * @description Sends the same envelope again (same id, same bytes) with a fresh signature, as a new round of seven attempts whose numbers continue its history. A switched-off endpoint gets it once it is switched on. Takes no body.
     */
    post: operations['WebhookEndpointsApiController_redeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhook-endpoints/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test delivery
     * @description One delivery of kind `webhook.test`, whatever kinds the endpoint chose; recorded among its deliveries, never counted toward switching it off. Takes no body.
     */
    post: operations['WebhookEndpointsApiController_test'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List integrations
     * @description Oldest first; never the URL, the secret or the credentials. Needs the `read` permission.
     */
    get: operations['IntegrationsController_list'];
    put?: never;
    /**
     * Create an integration
     * @description Mints the integration’s inbound webhook: `webhook_url` and `signing_secret` are shown in this answer only (no later answer shows them, and there is no rotation: a lost one means a new integration). `credentials` are stored sealed and never answered. A left-out `config` is answered as `{"sync_frequency": null, "field_mappings": []}`. Needs the `create` permission.
     */
    post: operations['IntegrationsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/integrations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an integration
     * @description Never the URL, the secret or the credentials. Needs the `read` permission.
     */
    get: operations['IntegrationsController_one'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/integration/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive a payload: record an event and/or add or update a contact
     * @description No API key: X-Webhook-Signature is the hex HMAC-SHA256 of the raw body keyed with the signing secret (optionally prefixed sha256=); a missing or wrong one is 401 and nothing is recorded. Available on every plan; 1,200 requests a minute per integration. With `event` the payload records an event exactly as `POST /api/v1/events` does; without it, it only adds or updates the contact. A retry with the same Idempotency-Key or the same top-level `id` is recorded once and answered 200 with the original ids.
     */
    post: operations['InboundWebhookController_receive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List channels
     * @description Oldest first.
     */
    get: operations['ChannelsApiController_list'];
    put?: never;
    /**
     * Create a channel
     * @description The provider must serve the channel type and the credentials must hold everything it needs (→ 422 at the field). The first channel of a type is its default; `is_default: true` takes the flag from the current default. Credentials are answered masked, never in clear; `callback_url` is the address to give the provider.
     */
    post: operations['ChannelsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a channel */
    get: operations['ChannelsApiController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a channel
     * @description Deleting the default channel of a type passes the flag to the oldest channel of the type left.
     */
    delete: operations['ChannelsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Update a channel
     * @description Only the fields sent change. `credentials` and `metadata` are merged one level deep (a member set to null is removed) and the credentials must still hold every one the provider needs. `status` may be set to `active` or `disabled` (a disabled channel sends nothing: its messages fail with `channel_disabled`). `is_default: true` makes it the one default channel of its type.
     */
    patch: operations['ChannelsApiController_update'];
    trace?: never;
  };
  '/api/v1/channels/{id}/push-subscriptions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a browser's push subscription
     * @description Takes the browser's PushSubscription JSON on a `browser_push` channel (another type → 422). The endpoint must be https to a public address (→ 422 at `/data/attributes/endpoint`). The same endpoint again answers the same `subscriber_id` and `created_at` (201), with the keys it last sent. A contact's `browser_push` channel link holds the `subscriber_id`.
     */
    post: operations['ChannelsApiController_subscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/channels/{id}/sandbox/inbound': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Simulate an inbound message on a sandbox channel
     * @description Acts as an inbound message from `from` (extensions §9.5): matched to a contact (an unknown sender on a phone channel becomes one), and an opt-out or opt-in keyword changes the suppression list and the consent. Sandbox channels only; any other channel → 404.
     */
    post: operations['ChannelsApiController_sandboxInbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List templates
     * @description Oldest first.
     */
    get: operations['TemplatesApiController_list'];
    put?: never;
    /**
     * Create a template
     * @description Bodies are Liquid (`{{ contact.name }}`, `{{ contact.data.plan }}`, `{{ event.data.total }}`, `{{ vars.code }}`, filters such as `default`, `upcase`, `date`). `name` is unique per workspace and channel type; `subject` and `html` are for email only, `provider_template` for whatsapp only; `body` is required unless `provider_template` is given. A template that does not parse → 422 at the field with its line and column.
     */
    post: operations['TemplatesApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/templates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a template */
    get: operations['TemplatesApiController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a template
     * @description Refused with 422 while a workflow has a `send` step whose route names the template, a notification sends it, or a bot has a flow `message` step that sends it; the errors name them, one error for the workflows, one for the notifications and one for the bots.
     */
    delete: operations['TemplatesApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Update a template
     * @description Only the fields sent change; null clears `body`, `subject`, `html` and `provider_template`. The change is judged by the template it makes (→ 422 at the field).
     */
    patch: operations['TemplatesApiController_update'];
    trace?: never;
  };
  '/api/v1/templates/{id}/render': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Render a template without sending
     * @description Renders the template for `contact_id` (optional), `variables` (as `vars`) and `event`, as a send would, and records nothing (the `read` permission). A missing variable without a `default` filter → 422 whose detail names it; an unknown contact → 422 at `/data/attributes/contact_id`.
     */
    post: operations['TemplatesApiController_render'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List messages
     * @description Newest first; outbound and inbound (`filter[direction]=inbound` for the messages contacts sent).
     */
    get: operations['MessagesApiController_list'];
    put?: never;
    /**
     * Send a message
     * @description Sends one message to `contact_id` along `route` (1–4 steps; each names a channel by `channel_id`, or by `channel` type for the workspace's default channel of that type, and a `template_id`; `wait_for` and `timeout` move the route to its next step when the status has not come in time). The contact must be the workspace's (→ 422 at `/data/attributes/contact_id`); channels and templates of another type than the step's → 422 with a pointer. Who may be messaged (recipient, suppression list, consent for `purpose: marketing`, the template's variables) is checked when the message goes out, not here: the answer is the message `queued`, and its later statuses are read with GET or received as message.* webhooks.
     */
    post: operations['MessagesApiController_send'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/messages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a message
     * @description With its whole status history (late changes included) and its tracked links with their clicks.
     */
    get: operations['MessagesApiController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alert-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List alert rules
     * @description Oldest first. Every workspace starts with one rule: `failure_rate gt 0.2` over 15 minutes, `min_volume` 20.
     */
    get: operations['AlertsApiController_listRules'];
    put?: never;
    /**
     * Create an alert rule
     * @description A rule fires when its window holds at least `min_volume` messages with an outcome and the metric is beyond the threshold (`gt` strictly above, `lt` strictly below), and resolves when the metric is back within it over a whole window (or a whole window passes without traffic). `threshold` is a rate in 0–1, or a whole number for `failure_count`; a `scope.channel_id` must be a channel of the workspace (→ 422).
     */
    post: operations['AlertsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alert-rules/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an alert rule */
    get: operations['AlertsApiController_getRule'];
    put?: never;
    post?: never;
    /**
     * Delete an alert rule
     * @description Resolves its firing alert; its alerts stay readable.
     */
    delete: operations['AlertsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Update an alert rule
     * @description Only the fields sent change; `scope` is replaced as a whole. Changing what a firing rule watches (anything but `name`), or `enabled: false`, resolves its alert.
     */
    patch: operations['AlertsApiController_update'];
    trace?: never;
  };
  '/api/v1/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List alerts
     * @description Newest first (by `started_at`).
     */
    get: operations['AlertsApiController_listAlerts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alerts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an alert */
    get: operations['AlertsApiController_getAlert'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/suppressions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the suppression list
     * @description Oldest first.
     */
    get: operations['SuppressionsApiController_list'];
    put?: never;
    /**
     * Add an address to the suppression list
     * @description Adds a `manual` entry (source `api`). `reason` may be left out and is `manual` when given (anything else → 422). The address is normalised for the channel type (E.164 for phone channels, lower case for email; anything else for the type → 422 at `/data/attributes/address`). An address already on the list for the channel type is not an error: the entry already there is answered with 200, whatever its reason and source.
     */
    post: operations['SuppressionsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/suppressions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a suppression list entry */
    get: operations['SuppressionsApiController_get'];
    put?: never;
    post?: never;
    /**
     * Remove an address from the suppression list
     * @description The address may be messaged again from the next send on. Removing an `opted_out` entry does not grant consent: a marketing message still needs it.
     */
    delete: operations['SuppressionsApiController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audiences': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List audiences
     * @description Oldest first; each with its size as of the answer.
     */
    get: operations['AudiencesApiController_list'];
    put?: never;
    /**
     * Create an audience
     * @description An audience made of `filter_criteria` (extensions §11) and lists of contact ids. A filter the language cannot read is refused before anything is recorded (422 with a pointer such as `/data/attributes/filter_criteria/0/operator`); an `audience` condition naming an audience the workspace does not have, or a chain of such conditions leading back to this audience, → 422 at `/data/attributes/filter_criteria`; a contact id that names no contact of the workspace → 422 at its place in its list; a name the workspace has → 422 at `/data/attributes/name`. Answers the audience as a read shows it right after the write, with its size.
     */
    post: operations['AudiencesApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audiences/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an audience
     * @description With its exact size as of the answer (relative dates relative to that moment).
     */
    get: operations['AudiencesApiController_get'];
    put?: never;
    post?: never;
    /** Delete an audience */
    delete: operations['AudiencesApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Change an audience
     * @description Only the fields sent change; `null` empties a list or the filter. The rules of the create apply; an import audience takes no `filter_criteria` (422). Answers the audience as a read shows it right after the write, with its size.
     */
    patch: operations['AudiencesApiController_update'];
    trace?: never;
  };
  '/api/v1/audience/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview an audience definition
     * @description A read (read permission; nothing is recorded): the exact number of contacts a definition matches now, the first `limit` of them by id (1–100, default 10), and how many of them every channel type could reach with marketing. The body meets the rules of an audience (the same 422s); every field is optional, `{}` matches every contact. Counts what the segments service’s view of the contacts holds: a contact answered a moment ago is in it within a second.
     */
    post: operations['AudiencesApiController_preview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List workflows
     * @description Oldest first.
     */
    get: operations['WorkflowsApiController_list'];
    put?: never;
    /**
     * Create a workflow
     * @description Requires `name`, `trigger` and `steps` (at least one); `enabled` defaults to true, `goal` to null, `re_entry` to `after_exit`. Answers the workflow at version 1. Refused with 422 and a pointer under `/data/attributes/`: an event name that breaks the event-name rule (`trigger/event`, `goal/event`); `goal/within` over P90D; no steps or more than 50; a missing or repeated step `id` (`steps/<i>/id`); an unknown `type`; a `next`, `else` or case `next` naming no step; a `wait` with none or more than one of `duration`, `until`, `until_date`, `until_event` (`steps/<i>`); an `until_event` with a bad event, no `timeout`, a `timeout` over P90D or a `timeout_next` naming no step; criteria the language cannot read; a route a message would be refused for (`steps/<i>/route/<j>/template_id`, …); a tag id that names no tag (`steps/<i>/add_tags/<k>`).
     */
    post: operations['WorkflowsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a workflow */
    get: operations['WorkflowsApiController_get'];
    put?: never;
    post?: never;
    /** Delete a workflow */
    delete: operations['WorkflowsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Change a workflow
     * @description Only the attributes sent change. A `trigger`, `steps`, `goal` or `re_entry` different from the stored one makes a new `version`; runs finish on the version they started with. Refused with 422 and a pointer under `/data/attributes/`: an event name that breaks the event-name rule (`trigger/event`, `goal/event`); `goal/within` over P90D; no steps or more than 50; a missing or repeated step `id` (`steps/<i>/id`); an unknown `type`; a `next`, `else` or case `next` naming no step; a `wait` with none or more than one of `duration`, `until`, `until_date`, `until_event` (`steps/<i>`); an `until_event` with a bad event, no `timeout`, a `timeout` over P90D or a `timeout_next` naming no step; criteria the language cannot read; a route a message would be refused for (`steps/<i>/route/<j>/template_id`, …); a tag id that names no tag (`steps/<i>/add_tags/<k>`).
     */
    patch: operations['WorkflowsApiController_update'];
    trace?: never;
  };
  '/api/v1/bots': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List bots
     * @description Oldest first.
     */
    get: operations['BotsApiController_list'];
    put?: never;
    /**
     * Create a bot
     * @description Requires `name`, `mode` (`ai` or `flow`) and `trigger_type` (`keyword`, `any_message`, `event` or `schedule`); `enabled` defaults to true, and `settings.schedule_timezone` to UTC when `settings.schedule_cron` is set. Refused with 422 and a pointer under `/data/attributes/`: a missing `name`, `mode` or `trigger_type`; an attribute a bot does not have; a flow bot without `flow_definition/steps` (1 to 50), an AI bot without `ai_instructions`; a `keyword` or `event` bot without `trigger_value` (an event name for `event`); a `schedule` bot without `settings/schedule_cron` or `target_group_id`; an `event` or `schedule` bot without `settings/channel_id`; a cron expression that does not parse as five fields (`settings/schedule_cron`); an unknown time zone (`settings/schedule_timezone`); a flow step without an `id` or with the `id` of an earlier step, whose `type` is not `message`, `question`, `branch`, `tag` or `end`, or with a field its type does not have (`flow_definition/steps/<i>/<field>`); a `next`, `default` or case `next` naming no step of the flow; a `validate` or `matches` whose pattern does not compile; an audience (`target_group_id`), channel (`settings/channel_id`), template (`flow_definition/steps/<i>/template_id`) or tag (`flow_definition/steps/<i>/tag_id`) that names nothing in the workspace.
     */
    post: operations['BotsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/bots/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a bot */
    get: operations['BotsApiController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a bot
     * @description Its active conversations end `completed` with `end_reason: "bot_deleted"`; every conversation of the bot stays readable at `GET /api/v1/bot-conversations/{id}`.
     */
    delete: operations['BotsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Update a bot
     * @description Requires `name`, `mode` and `trigger_type`; the attributes not sent keep their values, and the bot as patched must pass the rules of a create (a rule it breaks → 422 at the attribute, whether sent or kept). Refused with 422 and a pointer under `/data/attributes/`: a missing `name`, `mode` or `trigger_type`; an attribute a bot does not have; a flow bot without `flow_definition/steps` (1 to 50), an AI bot without `ai_instructions`; a `keyword` or `event` bot without `trigger_value` (an event name for `event`); a `schedule` bot without `settings/schedule_cron` or `target_group_id`; an `event` or `schedule` bot without `settings/channel_id`; a cron expression that does not parse as five fields (`settings/schedule_cron`); an unknown time zone (`settings/schedule_timezone`); a flow step without an `id` or with the `id` of an earlier step, whose `type` is not `message`, `question`, `branch`, `tag` or `end`, or with a field its type does not have (`flow_definition/steps/<i>/<field>`); a `next`, `default` or case `next` naming no step of the flow; a `validate` or `matches` whose pattern does not compile; an audience (`target_group_id`), channel (`settings/channel_id`), template (`flow_definition/steps/<i>/template_id`) or tag (`flow_definition/steps/<i>/tag_id`) that names nothing in the workspace.
     */
    patch: operations['BotsApiController_update'];
    trace?: never;
  };
  '/api/v1/bots/{id}/conversations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a bot's conversations
     * @description Newest first.
     */
    get: operations['BotsApiController_conversations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/bot-conversations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a bot conversation */
    get: operations['BotsApiController_conversation'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflows/{id}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a workflow's runs
     * @description Newest first (by `started_at`). A deleted workflow is 404 here; its runs stay readable at `GET /api/v1/workflow-runs/{id}`.
     */
    get: operations['WorkflowRunsApiController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/workflow-runs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a workflow run
     * @description With its history, one entry per step run. Readable after its workflow is deleted.
     */
    get: operations['WorkflowRunsApiController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/outcomes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List outcomes
     * @description Newest first.
     */
    get: operations['OutcomesApiController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/outcomes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an outcome */
    get: operations['OutcomesApiController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List notifications
     * @description Oldest first. Every filter is an exact match, but `filter[search]`.
     */
    get: operations['NotificationsApiController_list'];
    put?: never;
    /**
     * Create a notification
     * @description Requires `name`, `template_id` and `target_group_id`; `variables` defaults to `{}`, `route` to null (the template's channel type, its default channel), `schedule` to null, `schedule_timezone` to `UTC`, `enabled` to true, `purpose` to `marketing`, `throttle_per_minute` to null. `schedule` is an ISO 8601 time with its offset (one send then) or a cron expression of five fields read in `schedule_timezone` (a send at each tick); `next_run_at` answers when the next one starts. Refused with 422 and a pointer under `/data/attributes/`: a blank `name` or one over 255 characters; a `template_id` or `target_group_id` that names no template or audience of the workspace; `variables` that is not an object or is over 64 KiB as JSON; a `route` that is neither null nor 1 to 4 steps, or a step a message would be refused for (`route/<j>/channel_id`, `route/<j>/template_id`: a channel or template the workspace does not have, a template of another channel type than its step); a `schedule` that is a time in the past or a cron expression that does not parse (five fields); an unknown `schedule_timezone`; a `purpose` other than `transactional` or `marketing`; a `throttle_per_minute` that is neither null nor 1 to 1,000,000; an attribute a notification does not have.
     */
    post: operations['NotificationsApiController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notifications/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a notification
     * @description Queues a send of the notification to its saved audience, with its saved template and variables, as the Send now action of the console does (`/send` and `/batch-send` behave the same). `notification_audience` and `notification_template` are deprecated and ignored (strings). With `test_mode`, one message goes to `test_phone` (a number with its country code) instead: to the contact with that phone, made when the workspace has none, through the notification's route as `transactional`, whether or not the notification is enabled. Refused with 422 at `/data/attributes/notification_id` when it is missing, not an id, names no notification of the workspace or, for a send to the audience, a disabled one; at `/data/attributes/test_phone` when `test_mode` has no usable `test_phone`. The send's progress is read at `GET /api/v1/notification-sends/{id}`.
     */
    post: operations['NotificationsApiController_send'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notifications/batch-send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a notification (batch-send)
     * @description Queues a send of the notification to its saved audience, with its saved template and variables, as the Send now action of the console does (`/send` and `/batch-send` behave the same). `notification_audience` and `notification_template` are deprecated and ignored (strings or null). With `test_mode`, one message goes to `test_phone` (a number with its country code) instead: to the contact with that phone, made when the workspace has none, through the notification's route as `transactional`, whether or not the notification is enabled. Refused with 422 at `/data/attributes/notification_id` when it is missing, not an id, names no notification of the workspace or, for a send to the audience, a disabled one; at `/data/attributes/test_phone` when `test_mode` has no usable `test_phone`. The send's progress is read at `GET /api/v1/notification-sends/{id}`.
     */
    post: operations['NotificationsApiController_batchSend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notifications/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a notification */
    get: operations['NotificationsApiController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a notification
     * @description Frees its template and audience at once, and cancels its sends that have not finished (they stay readable).
     */
    delete: operations['NotificationsApiController_remove'];
    options?: never;
    head?: never;
    /**
     * Change a notification
     * @description Only the attributes sent change; null clears `route`, `schedule` and `throttle_per_minute`. A change of `schedule`, `schedule_timezone` or `enabled` moves `next_run_at`. Refused with 422 and a pointer under `/data/attributes/`: a blank `name` or one over 255 characters; a `template_id` or `target_group_id` that names no template or audience of the workspace; `variables` that is not an object or is over 64 KiB as JSON; a `route` that is neither null nor 1 to 4 steps, or a step a message would be refused for (`route/<j>/channel_id`, `route/<j>/template_id`: a channel or template the workspace does not have, a template of another channel type than its step); a `schedule` that is a time in the past or a cron expression that does not parse (five fields); an unknown `schedule_timezone`; a `purpose` other than `transactional` or `marketing`; a `throttle_per_minute` that is neither null nor 1 to 1,000,000; an attribute a notification does not have.
     */
    patch: operations['NotificationsApiController_update'];
    trace?: never;
  };
  '/api/v1/notifications/{id}/sends': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a notification's sends
     * @description Newest first: sends to the audience, scheduled ones and test sends alike.
     */
    get: operations['NotificationsApiController_sends'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notification-sends/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a notification send
     * @description With its messages' counts by how far each got; readable after its notification is deleted.
     */
    get: operations['NotificationSendsApiController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notification-sends/{id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pause a notification send
     * @description From `queued`, `preparing` or `sending`: the send makes no more messages until resumed; a message already made goes its way.
     */
    post: operations['NotificationSendsApiController_pause'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notification-sends/{id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume a notification send
     * @description From `paused`: the send goes on making messages for the members not yet messaged.
     */
    post: operations['NotificationSendsApiController_resume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/notification-sends/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a notification send
     * @description From `queued`, `preparing`, `sending` or `paused`: the send ends `cancelled`; members not yet messaged never are, and a message already made goes its way.
     */
    post: operations['NotificationSendsApiController_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhook/provider/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A provider's callback by GET: Meta's subscription handshake, or a status callback
     * @description No API key. With hub.mode=subscribe, hub.verify_token and hub.challenge the challenge is answered as text/plain when the verify token is the channel’s (else 403). Any other verified GET is recorded with its query string as a form-encoded body.
     */
    get: operations['ProviderCallbackController_receiveGet'];
    put?: never;
    /**
     * A provider's callback: message statuses and inbound messages
     * @description No API key: the provider’s own signature (X-Twilio-Signature, X-Hub-Signature-256, X-Telegram-Bot-Api-Secret-Token) is checked with the channel’s credentials before anything is recorded. The body (JSON or form-encoded, at most 1 MiB) is recorded as sent.
     */
    post: operations['ProviderCallbackController_receivePost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/l/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Follow a tracked link
     * @description No API key: the token is the credential. 302 to the URL the message had, and the click is counted (HEAD answers the same and counts nothing). An unknown or malformed token is 404. Past LINK_CLICKS_PER_CLIENT clicks a second from one address, a link the gateway holds still redirects (uncounted) and one it would have to look up is 429.
     */
    get: operations['LinkRedirectController_redirect'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audience-import/process': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Process an upload into an import audience
     * @description Queues a job that imports the rows of an upload (`path`, from `POST /api/v1/audience-import/preview`) into a new audience named `audience_name` (`source: import`). Each row is matched like an event’s contact, by the mapped phone then email column; a matched contact is added to the audience and otherwise left as it is; an unmatched row creates a contact when `create_new_entities` is true and is skipped (`no_match`) otherwise. A `path` of another workspace, unknown or expired → 422 at `/data/attributes/path`; a mapping naming neither `phone` nor `email` → 422 at `/data/attributes/mapping`; a mapped column the file does not have → 422 at `/data/attributes/mapping/<key>`; an `audience_name` the workspace has → 422 at `/data/attributes/audience_name`. The same path processed again is a job into an audience of its own, and creates nothing twice.
     */
    post: operations['AudienceImportJobsController_process'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audience-import/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an import job
     * @description Its status (`queued`, `running`, `completed`, `failed`) and progress while it runs: rows processed, contacts created and matched, rows skipped and the first 100 of them with the reason. A job fails when its upload expired before all its rows were sent, or a chunk of its rows can never be decided; the chunks sent before still count.
     */
    get: operations['AudienceImportJobsController_job'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audience-import/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Upload a CSV file to import: answers its columns, first rows and row count
     * @description multipart/form-data with the file in the part `file` (with or without a file name; other parts are read past): UTF-8 (a byte order mark is fine), comma, semicolon or tab separated (told from the header row), a header row naming every column once, at most 50 MiB and 1,000,000 data rows. Short rows are completed with empty cells; a value past the last column is refused. The file streams through to the segments service as it arrives. `path` names the upload for `POST /api/v1/audience-import/process` for 24 hours, in this workspace only. A refused file stores nothing.
     */
    post: operations['AudienceImportUploadController_preview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'message.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A message was accepted by the channel
     * @description The provider accepted the message (`data.status` is `sent`). Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.
     */
    post: operations['webhookMessageSent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.delivered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A message reached the customer
     * @description The provider reported the message delivered (`data.status` is `delivered`). Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.
     */
    post: operations['webhookMessageDelivered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The customer read a message
     * @description The provider reported the message read (`data.status` is `read`; `delivered_at` stays `null` when no delivered receipt came first). Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.
     */
    post: operations['webhookMessageRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A message could not be delivered
     * @description The message failed (`data.status` is `failed`): `failure` says why, with the code, a reason and a fix, and the provider's own code. Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.
     */
    post: operations['webhookMessageFailed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'message.suppressed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A message was not sent because of consent or suppression
     * @description The message was not sent (`data.status` is `suppressed`): the contact had no address for the channel, the address is on the suppression list, a marketing message lacked consent, or the template could not be rendered for the contact. The reason is on the message (`GET /api/v1/messages/{id}`, `suppression`). Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.
     */
    post: operations['webhookMessageSuppressed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'link.clicked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The customer opened a tracked link for the first time
     * @description The first human click of each tracked link of a message (bots, link scanners and clicks within 2 seconds of sending are not reported; later clicks are only counted on the message). It reaches an endpoint after the message's own message.* events.
     */
    post: operations['webhookLinkClicked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'outcome.recorded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A workflow reached its goal
     * @description A contact of a running workflow recorded its goal event (through `POST /api/v1/events` or an inbound webhook) within the goal’s time: the outcome, the event and the message credited with it.
     */
    post: operations['webhookOutcomeRecorded'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'consent.granted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A contact agreed to marketing on a channel
     * @description Marketing consent on one channel became `true`: through the API (`source: api`) or an opt-in keyword the contact sent (`keyword`).
     */
    post: operations['webhookConsentGranted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'consent.revoked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A contact withdrew marketing consent on a channel
     * @description Marketing consent on one channel became `false`: through the API (`source: api`), an opt-out keyword the contact sent (`keyword`), or a provider’s opt-out (`provider`).
     */
    post: operations['webhookConsentRevoked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'alert.triggered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Delivery monitoring raised or resolved an alert
     * @description Sent when an alert starts (`status: firing`, `notification_seq: 1`) and again, with the same `id`, when it resolves (`status: resolved`, `notification_seq: 2`); the two reach an endpoint in that order.
     */
    post: operations['webhookAlertTriggered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A test delivery
     * @description Sent by `POST /api/v1/webhook-endpoints/{id}/test` whatever kinds the endpoint chose; recorded among its deliveries like any other, but never counted toward switching it off.
     */
    post: operations['webhookTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    UpsertContactBody: {
      /** @description Not empty and not only white space. */
      name: string;
      external_id?: string;
      source?: string;
      phone?: string;
      /** Format: email */
      email?: string;
      /** @description At most 65536 bytes as JSON (UTF-8). */
      data?: Record<string, unknown>;
      marketing_consent?: Record<string, unknown>;
    };
    BatchUpsertContactsBody: {
      contacts: Record<string, unknown>[];
    };
    UpdateContactBody: {
      /** @description Not empty and not only white space. */
      name?: string;
      external_id?: string;
      source?: string;
      phone?: string;
      /** Format: email */
      email?: string;
      /** @description At most 65536 bytes as JSON (UTF-8). */
      data?: Record<string, unknown>;
      marketing_consent?: Record<string, unknown>;
    };
    LinkChannelBody: {
      external_id: string;
    };
    CreateTagBody: {
      /** @description Not empty and not only white space. */
      name: string;
      color?: string;
    };
    UpdateTagBody: {
      /** @description Not empty and not only white space. */
      name?: string;
      color?: string;
    };
    TagAssignmentBody: {
      contact_id: number;
      tag_ids: number[];
    };
    EventContactBody: {
      external_id?: string;
      phone?: string;
      /** Format: email */
      email?: string;
      name?: string;
      /** @description At most 65536 bytes as JSON (UTF-8). */
      data?: Record<string, unknown>;
      marketing_consent?: Record<string, unknown>;
    };
    RecordEventBody: {
      /** @description At most one hour after the time the request is received. */
      occurred_at?: string;
      name: string;
      contact: components['schemas']['EventContactBody'];
      /** @description At most 65536 bytes as JSON (UTF-8). */
      data?: Record<string, unknown>;
    };
    CreateWebhookEndpointBody: {
      url: string;
      description?: string;
      event_types: (
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
      )[];
    };
    UpdateWebhookEndpointBody: {
      url?: string;
      description?: string;
      event_types?: (
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
      )[];
      enabled?: boolean;
    };
    FieldMappingBody: {
      source: string;
      /** @enum {string} */
      target: 'name' | 'phone' | 'email' | 'external_id' | 'first_name' | 'last_name' | 'marketing_consent';
    };
    IntegrationConfigBody: {
      sync_frequency?: string;
      field_mappings?: components['schemas']['FieldMappingBody'][];
    };
    CreateIntegrationBody: {
      type: string;
      /** @description Not empty and not only white space. */
      name: string;
      credentials?: Record<string, unknown>;
      config?: components['schemas']['IntegrationConfigBody'];
    };
    CreateChannelBody: {
      /** @enum {string} */
      type: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      name: string;
      /** @enum {string} */
      provider: 'sandbox' | 'twilio' | 'meta' | 'telegram' | 'smtp' | 'web_push';
      credentials?: Record<string, unknown>;
      metadata?: Record<string, unknown>;
      is_default?: boolean;
    };
    UpdateChannelBody: {
      name?: string;
      credentials?: Record<string, unknown>;
      metadata?: Record<string, unknown>;
      is_default?: boolean;
      /** @enum {string} */
      status?: 'active' | 'disabled';
    };
    PushSubscriptionKeysBody: {
      p256dh: string;
      auth: string;
    };
    CreatePushSubscriptionBody: {
      endpoint: string;
      keys: components['schemas']['PushSubscriptionKeysBody'];
    };
    SandboxInboundBody: {
      from: string;
      text: string;
    };
    RouteStepBody: {
      channel_id?: number;
      /** @enum {string} */
      channel?:
        'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      template_id: number;
      /** @enum {string} */
      wait_for?: 'sent' | 'delivered' | 'read';
      timeout?: string;
    };
    SendMessageBody: {
      contact_id: number;
      route: components['schemas']['RouteStepBody'][];
      variables?: Record<string, unknown>;
      /** @enum {string} */
      purpose?: 'transactional' | 'marketing';
    };
    CreateSuppressionBody: {
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      address: string;
      /** @enum {string} */
      reason?: 'manual';
    };
    ProviderTemplateBody: {
      name: string;
      language: string;
      parameters?: string[];
    };
    CreateTemplateBody: {
      name: string;
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      language?: string;
      body?: string;
      subject?: string;
      html?: string;
      provider_template?: components['schemas']['ProviderTemplateBody'];
      track_links?: boolean;
    };
    UpdateTemplateBody: {
      name?: string;
      /** @enum {string} */
      channel?:
        'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      language?: string;
      body?: string;
      subject?: string;
      html?: string;
      provider_template?: components['schemas']['ProviderTemplateBody'];
      track_links?: boolean;
    };
    RenderTemplateBody: {
      contact_id?: number;
      variables?: Record<string, unknown>;
      event?: Record<string, unknown>;
    };
    AlertScopeBody: {
      channel_id?: number;
      workflow_id?: number;
      campaign_id?: number;
    };
    CreateAlertRuleBody: {
      name: string;
      /** @enum {string} */
      metric: 'failure_rate' | 'suppression_rate' | 'delivery_rate' | 'failure_count';
      /** @enum {string} */
      comparator: 'gt' | 'lt';
      threshold: number;
      window_minutes: number;
      min_volume?: number;
      scope?: components['schemas']['AlertScopeBody'];
      enabled?: boolean;
    };
    UpdateAlertRuleBody: {
      name?: string;
      /** @enum {string} */
      metric?: 'failure_rate' | 'suppression_rate' | 'delivery_rate' | 'failure_count';
      /** @enum {string} */
      comparator?: 'gt' | 'lt';
      threshold?: number;
      window_minutes?: number;
      min_volume?: number;
      scope?: components['schemas']['AlertScopeBody'];
      enabled?: boolean;
    };
    CreateAudienceBody: {
      name: string;
      filter_criteria?: unknown[];
      include_contact_ids?: number[];
      exclude_contact_ids?: number[];
    };
    UpdateAudienceBody: {
      name?: string;
      filter_criteria?: unknown[];
      include_contact_ids?: number[];
      exclude_contact_ids?: number[];
    };
    PreviewAudienceBody: {
      filter_criteria?: unknown[];
      include_contact_ids?: number[];
      exclude_contact_ids?: number[];
      limit?: number;
    };
    ImportMappingBody: {
      phone?: string;
      email?: string;
      name?: string;
    };
    ProcessImportBody: {
      path: string;
      mapping: components['schemas']['ImportMappingBody'];
      audience_name: string;
      create_new_entities?: boolean;
    };
    BotBody: {
      name: unknown;
      description?: unknown;
      mode: unknown;
      trigger_type: unknown;
      trigger_value?: unknown;
      target_group_id?: unknown;
      ai_instructions?: unknown;
      ai_temperature?: unknown;
      ai_max_tokens?: unknown;
      flow_definition?: unknown;
      settings?: unknown;
      enabled?: unknown;
    };
    WorkflowBody: {
      name: unknown;
      enabled?: unknown;
      trigger: unknown;
      steps: unknown;
      goal?: unknown;
      re_entry?: unknown;
    };
    CreateWorkspaceBody: {
      /** @description Not empty and not only white space. */
      name: string;
      /** @enum {string} */
      plan: 'starter' | 'pro' | 'business' | 'agency';
    };
    UpdateWorkspaceBody: {
      /** @description Not empty and not only white space. */
      name?: string;
      /** @enum {string} */
      plan?: 'starter' | 'pro' | 'business' | 'agency';
    };
    CreateApiKeyBody: {
      /** @description Not empty and not only white space. */
      name: string;
      permissions: ('read' | 'create' | 'update' | 'delete')[];
    };
    RecordedEvent: {
      id: number;
      name: string;
      contact_id: number;
      /** @description The details sent for automations (`{}` when none). */
      data: {
        [key: string]: unknown;
      };
      /**
       * Format: date-time
       * @description As sent, or the time of receipt.
       */
      occurred_at: string;
      /** Format: date-time */
      received_at: string;
      /** @description The Idempotency-Key header it was sent with; null without one and for webhook events. */
      idempotency_key: string | null;
    };
    Contact: {
      id: number;
      /** @description Null for a contact created by an event or webhook without a name. */
      name: string | null;
      /** @description International format (E.164) when it could be read as a number. */
      phone: string | null;
      email: string | null;
      /** @description The caller's own identifier. */
      external_id: string | null;
      source: string | null;
      /** @description Custom fields (merged key by key on every write). */
      data: {
        [key: string]: unknown;
      };
      marketing_consent: components['schemas']['MarketingConsent'];
      /** @description In tag id order. */
      tags: components['schemas']['ContactTag'][];
      channels: components['schemas']['ContactChannels'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A contact as a batch answers it: without `data` and `tags` (read the contact for them). */
    BatchContact: {
      id: number;
      /** @description Null for a contact created by an event or webhook without a name. */
      name: string | null;
      /** @description International format (E.164) when it could be read as a number. */
      phone: string | null;
      email: string | null;
      /** @description The caller's own identifier. */
      external_id: string | null;
      source: string | null;
      marketing_consent: components['schemas']['MarketingConsent'];
      channels: components['schemas']['ContactChannels'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description Every channel of the specification: true (granted), false (withdrawn) or null (never given). */
    MarketingConsent: {
      whatsapp: boolean | null;
      sms: boolean | null;
      email: boolean | null;
      rcs: boolean | null;
      telegram: boolean | null;
      messenger: boolean | null;
      instagram: boolean | null;
      browser_push: boolean | null;
    };
    /** @description The contact's id on each channel it can be linked on, or null. */
    ContactChannels: {
      telegram: string | null;
      messenger: string | null;
      instagram: string | null;
      browser_push: string | null;
    };
    ContactTag: {
      id: number;
      name: string;
      color: string | null;
    };
    ContactBatchResult: {
      /** @description One result per element, in the order sent. */
      results: (components['schemas']['BatchElementApplied'] | components['schemas']['BatchElementFailed'])[];
      summary: {
        created: number;
        updated: number;
        failed: number;
      };
    };
    BatchElementApplied: {
      index: number;
      /**
       * @description 201 created, 200 updated.
       * @enum {integer}
       */
      status: 200 | 201;
      contact: components['schemas']['BatchContact'];
    };
    /** @description An element that failed alone: its errors point into `/data/attributes/contacts/<index>`. */
    BatchElementFailed: {
      index: number;
      /** @example 422 */
      status: number;
      errors: components['schemas']['JsonApiError'][];
    };
    Tag: {
      id: number;
      name: string;
      /** @description `#rgb` or `#rrggbb`, as sent. */
      color: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    Integration: {
      id: number;
      /** @description Any value of 1–100 characters, as sent. */
      type: string;
      name: string;
      config: components['schemas']['IntegrationConfig'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description An integration as its creation answers it: with its URL and signing secret, which no other answer shows. */
    IntegrationCreated: {
      id: number;
      /** @description Any value of 1–100 characters, as sent. */
      type: string;
      name: string;
      config: components['schemas']['IntegrationConfig'];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description Where the tool posts its payloads; absolute under PUBLIC_BASE_URL. Shown only here. */
      webhook_url: string;
      /** @description Keys X-Webhook-Signature. Shown only here. */
      signing_secret: string;
    };
    IntegrationConfig: {
      sync_frequency: string | null;
      field_mappings: components['schemas']['FieldMapping'][];
    };
    FieldMapping: {
      /** @description A dot path in the payload (`customer.mobile`, `answers.0.email`). */
      source: string;
      /** @enum {string} */
      target: 'name' | 'phone' | 'email' | 'external_id' | 'first_name' | 'last_name' | 'marketing_consent';
    };
    InboundWebhookAnswer: {
      /** @description Null when the payload had no event. */
      event_id: number | null;
      contact_id: number;
    };
    Workspace: {
      id: number;
      name: string;
      /** @enum {string} */
      plan: 'starter' | 'pro' | 'business' | 'agency';
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A workspace as its creation answers it. */
    WorkspaceCreated: {
      id: number;
      name: string;
      /** @enum {string} */
      plan: 'starter' | 'pro' | 'business' | 'agency';
      /** Format: date-time */
      created_at: string;
    };
    /** @description The API key a request was made with (never its secret), and its workspace. */
    CurrentApiKey: {
      id: number;
      name: string;
      permissions: ('read' | 'create' | 'update' | 'delete')[];
      workspace: {
        id: number;
        name: string;
        /** @enum {string} */
        plan: 'starter' | 'pro' | 'business' | 'agency';
      };
      /** Format: date-time */
      created_at: string;
    };
    /** @description A key as its creation answers it. */
    ApiKeyCreated: {
      id: number;
      name: string;
      permissions: ('read' | 'create' | 'update' | 'delete')[];
      workspace_id: number;
      /** Format: date-time */
      created_at: string;
      /** @description The key itself (`Authorization: Bearer <key>`). Shown only here. */
      key: string;
    };
    /** @description A sending channel (extensions §9). Secrets are never answered back. */
    Channel: {
      id: number;
      /** @enum {string} */
      type: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @enum {string} */
      provider: 'sandbox' | 'twilio' | 'meta' | 'telegram' | 'smtp' | 'web_push';
      name: string;
      /**
       * @description `failing` is set by the service when the provider refuses the credentials; a successful send sets it back to `active`.
       * @enum {string}
       */
      status: 'active' | 'disabled' | 'failing';
      /** @description The one default channel of its type (the first channel of a type is its default). */
      is_default: boolean;
      /** @description Every credential masked: `••••` and its last four characters (`••••` alone for a value shorter than 8 characters). `{}` when none were given. */
      credentials: {
        [key: string]: string;
      };
      /** @description As sent (merged one level deep by PATCH). */
      metadata: {
        [key: string]: unknown;
      };
      /** @description `<PUBLIC_BASE_URL>/webhook/provider/<token>`: the address to give the provider for status callbacks and inbound messages. */
      callback_url: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A message template (extensions §9). */
    Template: {
      id: number;
      name: string;
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @description BCP 47 (default `en`). */
      language: string;
      /** @description Liquid. Null only with a `provider_template`. */
      body: string | null;
      /** @description Email only. */
      subject: string | null;
      /** @description Email only. */
      html: string | null;
      /** @description WhatsApp only. */
      provider_template: components['schemas']['ProviderTemplate'] | null;
      track_links: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description An approved WhatsApp template. */
    ProviderTemplate: {
      name: string;
      language: string;
      /** @description Liquid, rendered like `body`. */
      parameters: string[];
    };
    /** @description The template rendered as a send would render it; nothing is sent or recorded. */
    RenderedTemplate: {
      subject: string | null;
      body: string | null;
      html: string | null;
    };
    /** @description A message sent or received (extensions §9, Messages). */
    Message: {
      /** @description `msg_` and 32 lower-case hexadecimal digits. */
      id: string;
      /** @enum {string} */
      direction: 'outbound' | 'inbound';
      /**
       * @description Inbound messages are `received`.
       * @enum {string}
       */
      status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'suppressed' | 'received';
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      channel_id: number;
      /** @description The address it went to (outbound; null until the send worker resolved it) or came from (inbound). */
      recipient: string | null;
      /** @description The template's name; null for inbound messages, keyword replies and a bot's text sent as written. */
      template: string | null;
      /** @description Null for an inbound message from a sender no contact matches. */
      contact_id: number | null;
      workflow: components['schemas']['MessageWorkflow'] | null;
      campaign_id: number | null;
      /** @description True for the message of a notification's test send (extensions §13); false for every other message. */
      test: boolean;
      /** @description The bot that sent it; null for every other message, inbound ones included. */
      bot: components['schemas']['MessageBot'] | null;
      /**
       * @description As the send said (`transactional` unless it said `marketing`; a bot's messages are transactional); null for inbound messages.
       * @enum {string|null}
       */
      purpose: 'transactional' | 'marketing' | null;
      /** @description The message of the previous route step this one replaces. */
      fallback_from: string | null;
      failure: components['schemas']['MessageFailure'] | null;
      suppression: components['schemas']['MessageSuppression'] | null;
      /** @description As rendered (outbound; a bot's text as written) or received (inbound); null until rendered. */
      body: string | null;
      /** Format: date-time */
      sent_at: string | null;
      /** Format: date-time */
      delivered_at: string | null;
      /** Format: date-time */
      read_at: string | null;
      /** Format: date-time */
      failed_at: string | null;
      history: components['schemas']['MessageHistoryEntry'][];
      /** @description In link order. */
      links: components['schemas']['MessageLink'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description An inbound message, as recorded. */
    InboundMessage: {
      /** @description `msg_` and 32 lower-case hexadecimal digits. */
      id: string;
      /** @enum {string} */
      direction: 'inbound';
      /** @enum {string} */
      status: 'received';
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      channel_id: number;
      /** @description The sender (`from`). */
      recipient: string;
      template: null;
      /** @description Null for an inbound message from a sender no contact matches. */
      contact_id: number | null;
      workflow: components['schemas']['MessageWorkflow'] | null;
      campaign_id: number | null;
      /** @description True for the message of a notification's test send (extensions §13); false for every other message. */
      test: boolean;
      bot: null;
      purpose: null;
      /** @description The message of the previous route step this one replaces. */
      fallback_from: string | null;
      failure: components['schemas']['MessageFailure'] | null;
      suppression: components['schemas']['MessageSuppression'] | null;
      /** @description The text received. */
      body: string;
      /** Format: date-time */
      sent_at: string | null;
      /** Format: date-time */
      delivered_at: string | null;
      /** Format: date-time */
      read_at: string | null;
      /** Format: date-time */
      failed_at: string | null;
      history: components['schemas']['MessageHistoryEntry'][];
      /** @description In link order. */
      links: components['schemas']['MessageLink'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description The workflow run that sent the message. */
    MessageWorkflow: {
      id: number;
      name: string;
      run_id: number;
      step: string;
    };
    /** @description The bot that sent the message (extensions §12, What bots send). */
    MessageBot: {
      /** @description The bot. */
      id: number;
      /** @description The bot's name when the message was made. */
      name: string;
      /** @description The conversation the message belongs to. */
      conversation_id: number;
    };
    /** @description Why the message failed (extensions §9, Failure codes). */
    MessageFailure: {
      /** @enum {string} */
      code:
        | 'invalid_recipient'
        | 'not_on_channel'
        | 'landline'
        | 'unreachable'
        | 'opted_out'
        | 'blocked_by_recipient'
        | 'outside_window'
        | 'template_error'
        | 'content_filtered'
        | 'rate_limited'
        | 'bounced'
        | 'spam_complaint'
        | 'subscription_expired'
        | 'channel_misconfigured'
        | 'channel_disabled'
        | 'provider_unavailable'
        | 'expired'
        | 'provider_error';
      /** @description What the code means, written for the customer. */
      reason: string;
      /** @description What to do about it. */
      fix: string;
      /** @description The provider's own code. */
      provider_code: string | null;
    };
    /** @description Why the message was not sent (extensions §9, Who may be messaged). */
    MessageSuppression: {
      /** @enum {string} */
      reason: 'no_recipient' | 'suppressed_address' | 'no_consent' | 'render_error';
      detail: string;
    };
    /** @description A status change, late ones included. */
    MessageHistoryEntry: {
      /** @enum {string} */
      status: 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'suppressed' | 'received';
      /** Format: date-time */
      at: string;
      /** @description Who reported it: `api`, `service` (the send worker or the route), `sandbox` or `provider`. */
      source: string;
      /**
       * @description Present (true) when the change came too late to move the status: it changed nothing.
       * @enum {boolean}
       */
      ignored?: true;
    };
    /** @description A tracked link of the message (extensions §10). */
    MessageLink: {
      /** @description The original URL. */
      url: string;
      /** @description From 0, in the order of the body. */
      link_index: number;
      /** @description Human clicks. */
      clicks: number;
      /** @description Clicks of link scanners, prefetchers, or within 2 seconds of `sent_at`. */
      bot_clicks: number;
      /** Format: date-time */
      first_clicked_at: string | null;
      /** Format: date-time */
      last_clicked_at: string | null;
    };
    /** @description A browser's push subscription on a browser_push channel. */
    PushSubscription: {
      /** @description What a contact's `browser_push` channel link holds; the same endpoint on the channel always has the same id. */
      subscriber_id: string;
      endpoint: string;
      /**
       * Format: date-time
       * @description When the endpoint was first subscribed.
       */
      created_at: string;
    };
    /** @description An address that is not messaged on a channel type (extensions §9). Entries do not change. */
    Suppression: {
      id: string;
      /** @enum {string} */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @description Normalised for the channel type: E.164 for phone channels, lower case for email. */
      address: string;
      /** @enum {string} */
      reason: 'opted_out' | 'bounced' | 'spam_complaint' | 'invalid_recipient' | 'manual';
      /**
       * @description `api` for entries added through this API.
       * @enum {string}
       */
      source: 'api' | 'keyword' | 'provider';
      /** Format: date-time */
      created_at: string;
    };
    /** @description A delivery monitoring rule (extensions §10). */
    AlertRule: {
      /** @description Counted per workspace; the default rule is 1. */
      id: number;
      name: string;
      /** @enum {string} */
      metric: 'failure_rate' | 'suppression_rate' | 'delivery_rate' | 'failure_count';
      /** @enum {string} */
      comparator: 'gt' | 'lt';
      /** @description A rate in 0–1, or a count for `failure_count`. */
      threshold: number;
      window_minutes: number;
      /** @description Messages with an outcome in the window before the rule can fire. */
      min_volume: number;
      scope: components['schemas']['AlertScope'];
      enabled: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description Which messages are watched; empty: the whole workspace. */
    AlertScope: {
      channel_id?: number;
      workflow_id?: number;
      campaign_id?: number;
    };
    /** @description An alert a rule raised (extensions §10); a resolved one shows the metric of the moment it resolved. */
    Alert: {
      id: string;
      rule_id: number;
      /** @enum {string} */
      status: 'firing' | 'resolved';
      /** @enum {string} */
      metric: 'failure_rate' | 'suppression_rate' | 'delivery_rate' | 'failure_count';
      /** @enum {string} */
      comparator: 'gt' | 'lt';
      /** @description The metric over the window. */
      value: number;
      threshold: number;
      window_minutes: number;
      /** @description Messages with an outcome in the window. */
      sample_size: number;
      scope: components['schemas']['AlertScope'];
      /** @description The window's most frequent failure codes (ties by code). */
      top_failure_codes: components['schemas']['AlertFailureCode'][];
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      resolved_at: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    AlertFailureCode: {
      /** @enum {string} */
      code:
        | 'invalid_recipient'
        | 'not_on_channel'
        | 'landline'
        | 'unreachable'
        | 'opted_out'
        | 'blocked_by_recipient'
        | 'outside_window'
        | 'template_error'
        | 'content_filtered'
        | 'rate_limited'
        | 'bounced'
        | 'spam_complaint'
        | 'subscription_expired'
        | 'channel_misconfigured'
        | 'channel_disabled'
        | 'provider_unavailable'
        | 'expired'
        | 'provider_error';
      count: number;
      fix: string;
    };
    /** @description An audience (extensions §11): a contact is a member when it is in `include_contact_ids`, or matches every criterion (an import audience: was imported into it), and is not in `exclude_contact_ids`. */
    Audience: {
      id: number;
      name: string;
      /**
       * @description `filters` for an audience made through the API, `import` for one an import made.
       * @enum {string}
       */
      source: 'filters' | 'import';
      /** @description The criteria as they were sent (all must hold): conditions `{"field", "operator", "value"}` and groups `{"any": [...]}`, `{"all": [...]}`, `{"not": {...}}` (extensions §11). `[]` matches every contact; always `[]` on an import audience. */
      filter_criteria: {
        [key: string]: unknown;
      }[];
      /** @description Contacts that are members whatever the criteria say; each id once. */
      include_contact_ids: number[];
      /** @description Contacts that are never members; each id once. */
      exclude_contact_ids: number[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The exact number of members as of this answer (counted at every read, never stored). */
      size: number;
    };
    /** @description An audience as a create or an update answers it: as a read shows it right after the write, with its `size`. Should that read fail, the audience as written, without `size` (the write happened either way). */
    AudienceWritten: {
      id: number;
      name: string;
      /**
       * @description `filters` for an audience made through the API, `import` for one an import made.
       * @enum {string}
       */
      source: 'filters' | 'import';
      /** @description The criteria as they were sent (all must hold): conditions `{"field", "operator", "value"}` and groups `{"any": [...]}`, `{"all": [...]}`, `{"not": {...}}` (extensions §11). `[]` matches every contact; always `[]` on an import audience. */
      filter_criteria: {
        [key: string]: unknown;
      }[];
      /** @description Contacts that are members whatever the criteria say; each id once. */
      include_contact_ids: number[];
      /** @description Contacts that are never members; each id once. */
      exclude_contact_ids: number[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The exact number of members as of this answer (counted at every read, never stored). */
      size?: number;
    };
    /** @description A contact as `GET /api/v1/contacts/{id}` shows it. */
    AudiencePreviewContact: {
      id: number;
      name: string | null;
      phone: string | null;
      email: string | null;
      external_id: string | null;
      source: string | null;
      /** @description The contact's custom fields, as stored. */
      data: {
        [key: string]: unknown;
      };
      /** @description Every channel: `true` or `false` as last recorded, `null` where nothing was ever recorded. */
      marketing_consent: {
        whatsapp: boolean | null;
        sms: boolean | null;
        email: boolean | null;
        rcs: boolean | null;
        telegram: boolean | null;
        messenger: boolean | null;
        instagram: boolean | null;
        browser_push: boolean | null;
      };
      /** @description The contact's tags, by id. */
      tags: {
        id: number;
        name: string;
        color: string | null;
      }[];
      /** @description The contact's own id on each linkable channel, `null` where none is linked. */
      channels: {
        telegram: string | null;
        messenger: string | null;
        instagram: string | null;
        browser_push: string | null;
      };
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description The live preview of an audience definition. */
    AudiencePreview: {
      /** @description The exact number of contacts the definition matches now. */
      count: number;
      /** @description The first `limit` of them (default 10) by id. */
      sample: components['schemas']['AudiencePreviewContact'][];
      /** @description For every channel type, how many of all matching contacts (not only the sample) could receive a marketing message now: an address for the channel, marketing consent `true` on it, and not on the suppression list for it. */
      reachable: {
        whatsapp: number;
        sms: number;
        email: number;
        rcs: number;
        telegram: number;
        messenger: number;
        instagram: number;
        browser_push: number;
      };
      /**
       * Format: date-time
       * @description The moment the definition was evaluated (relative dates are relative to it).
       */
      computed_at: string;
    };
    /** @description A stored upload: the first step of an import. */
    ImportUpload: {
      /** @description Names the upload for `POST /api/v1/audience-import/process`, for 24 hours and in this workspace only. */
      path: string;
      /** @description The header row: every column once, trimmed, in file order. */
      columns: string[];
      /** @description The first five data rows, each keyed by every column (a short row completed with empty cells). */
      sample_rows: {
        [key: string]: string;
      }[];
      /** @description The data rows stored: the header, blank lines and rows of empty cells not counted. */
      row_count: number;
      /**
       * @description The separator the header row uses most (a comma when it uses none).
       * @enum {string}
       */
      delimiter: ',' | ';' | '\t';
    };
    /** @description An import job as queued. */
    ImportJobQueued: {
      job_id: number;
      /** @description The import audience the job fills (`source: import`). */
      audience_id: number;
      /**
       * @description Always `queued`: the job as decided; read it for its progress.
       * @enum {string}
       */
      status: 'queued';
    };
    /** @description An import job (extensions §11) and its progress. */
    ImportJob: {
      id: number;
      /** @enum {string} */
      status: 'queued' | 'running' | 'completed' | 'failed';
      audience_id: number;
      rows_total: number;
      rows_processed: number;
      contacts_created: number;
      contacts_matched: number;
      rows_skipped: number;
      /** @description The first 100 skipped rows, in row order. */
      errors: {
        /** @description The 1-based data row. */
        row: number;
        /** @enum {string} */
        reason: 'no_identifier' | 'invalid_phone' | 'invalid_email' | 'no_match' | 'plan_limit';
      }[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /**
       * Format: date-time
       * @description When it completed, or the moment it could no longer complete (`failed`).
       */
      finished_at: string | null;
      /**
       * Format: date-time
       * @description Its creation, its last decided chunk of rows or its end, whichever is latest.
       */
      updated_at: string;
    };
    /** @description A bot (extensions §12, Bots): a flow or a model that answers contacts on their channel. */
    Bot: {
      id: number;
      name: string;
      description: string | null;
      /** @enum {string} */
      mode: 'ai' | 'flow';
      /** @enum {string} */
      trigger_type: 'keyword' | 'any_message' | 'event' | 'schedule';
      /** @description The keyword (`keyword`) or the event name (`event`). */
      trigger_value: string | null;
      /** @description An audience: the bot starts conversations only with its members. */
      target_group_id: number | null;
      /** @description AI mode: the system message. */
      ai_instructions: string | null;
      ai_temperature: number | null;
      ai_max_tokens: number | null;
      /** @description Flow mode: the steps. */
      flow_definition: {
        steps: {
          id: string;
          /** @enum {string} */
          type: 'message' | 'question' | 'branch' | 'tag' | 'end';
          next?: string;
          /** @description `message` (sent as written) and `question`. */
          text?: string;
          /** @description `message`: a template rendered with the contact, instead of `text`. */
          template_id?: number;
          /** @description `question`: the custom field the answer is stored in (`email` or `data.email`). */
          save_as?: string;
          /** @description `question`: `email`, `phone`, `number` or `regex:<pattern>`. */
          validate?: string;
          /** @description `question`: sent after the first and the second failed answer. */
          retry_text?: string;
          /** @description `branch`: `answer` or `data.<field>`. */
          on?: string;
          /** @description `branch`: the first case whose `equals` (trimmed, any case) or `matches` holds names the next step. */
          cases?: {
            equals?: string;
            /** @description A regular expression. */
            matches?: string;
            next: string;
          }[];
          /** @description `branch`: the step when no case holds. */
          default?: string;
          /** @description `tag`: the tag attached. */
          tag_id?: number;
        }[];
      } | null;
      settings: {
        /** @description A five-field cron expression (`schedule`). */
        schedule_cron?: string | null;
        /** @description An IANA time zone; UTC when a cron is set without one. */
        schedule_timezone?: string | null;
        /** @description The channel `event` and `schedule` bots start on; it limits the others. */
        channel_id?: number | null;
      } & {
        [key: string]: unknown;
      };
      /** @description A disabled bot starts nothing; its active conversations go on. */
      enabled: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A conversation of a bot with a contact on one channel. */
    BotConversation: {
      id: number;
      bot_id: number;
      contact_id: number;
      channel_id: number;
      /** @enum {string} */
      status: 'active' | 'completed' | 'expired' | 'failed';
      /**
       * @description Null while active.
       * @enum {string|null}
       */
      end_reason:
        | 'completed'
        | 'expired'
        | 'opted_out'
        | 'invalid_answer'
        | 'ai_error'
        | 'ai_unavailable'
        | 'bot_deleted'
        | null;
      /** @description Flow mode: the question the conversation waits at. */
      current_step: string | null;
      messages: {
        /** @enum {string} */
        direction: 'inbound' | 'outbound';
        /** @description Null for a template message. */
        text: string | null;
        message_id: string | null;
        /** Format: date-time */
        at: string;
      }[];
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      ended_at: string | null;
    };
    /** @description A workflow (extensions §12): the steps an event starts for a contact. */
    Workflow: {
      id: number;
      name: string;
      /** @description A disabled workflow starts nothing; its runs already going go on. */
      enabled: boolean;
      /** @description What starts a run. */
      trigger: {
        /** @description The event name that starts a run. */
        event: string;
        /** @description Criteria (extensions §11) over the contact as the event left it, plus `event.data.<path>` of the event; `[]` holds for every contact. */
        filter: {
          [key: string]: unknown;
        }[];
      };
      steps: ({
        id: string;
        /** @enum {string} */
        type: 'send' | 'wait' | 'branch' | 'update_contact' | 'exit';
      } & {
        [key: string]: unknown;
      })[];
      /** @description The event that ends a run `goal_reached` and records an outcome, or null. */
      goal: {
        event: string;
        /** @description An ISO 8601 duration, at most P90D, from the start of the run. */
        within: string;
      } | null;
      /**
       * @description `after_exit` (default): no new run while the contact has one active or waiting; `never`: only one run per contact ever; `always`: a new event replaces a going run.
       * @enum {string}
       */
      re_entry: 'never' | 'always' | 'after_exit';
      /** @description 1 at creation, one more for every change of `trigger`, `steps`, `goal` or `re_entry`; runs finish on the version they started with. */
      version: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A run of a workflow for a contact (extensions §12, Runs). */
    WorkflowRun: {
      id: number;
      workflow_id: number;
      /** @description The version of the workflow the run started with, and finishes on. */
      version: number;
      contact_id: number;
      /**
       * @description `active` or `waiting` while it goes on; it ends `completed`, `goal_reached`, `exited` or `failed`.
       * @enum {string}
       */
      status: 'active' | 'waiting' | 'completed' | 'goal_reached' | 'exited' | 'failed';
      /** @description The step the run is at; null once it has ended. */
      current_step: string | null;
      /** @description The event that started the run. */
      trigger_event_id: number;
      /** Format: date-time */
      started_at: string;
      /**
       * Format: date-time
       * @description When the run ended; null while it goes on.
       */
      ended_at: string | null;
      /** @description One entry per step run, in order. */
      history: {
        /** @description The step run; for an end from outside (goal reached, replaced, workflow deleted), the step the run was at, or null after its last step. */
        step: string | null;
        /** Format: date-time */
        at: string;
        /** @description `queued` (a send), `waited` (a wait ended), `event` or `timeout` (an `until_event` wait), the chosen step id (a branch), `updated`, `exited`; an end: `goal_reached`, `replaced`, `workflow_deleted`, `invalid_date`, `step_limit`. */
        result: string;
        /** @description The message a send step made; null for any other entry. */
        message_id: string | null;
      }[];
    };
    /** @description An outcome (extensions §12, Goals and outcomes): the data of its outcome.recorded webhook and when it was recorded. */
    Outcome: {
      id: number;
      /** @description The goal event name. */
      goal: string;
      workflow: {
        id: number;
        name: string;
        run_id: number;
      };
      /** @description The run's message with the strongest engagement (clicked, then read, delivered, sent; the latest among equals), or `null`. */
      credited_message_id: string | null;
      /**
       * @description The channel type of the credited message; `null` with it.
       * @enum {string|null}
       */
      channel:
        'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push' | null;
      contact: components['schemas']['WebhookContact'];
      /** @description The goal event. */
      event: {
        id: number;
        /** @description The goal event's data. */
        data: {
          [key: string]: unknown;
        };
      };
      /**
       * Format: date-time
       * @description The goal event's time.
       */
      occurred_at: string;
      /**
       * Format: date-time
       * @description When the outcome was recorded.
       */
      created_at: string;
    };
    /** @description A notification (extensions §13): a saved template sent to a saved audience with saved variables. */
    Notification: {
      id: number;
      name: string;
      template_id: number;
      /** @description The template's name. */
      template_name: string;
      /** @description The audience it sends to. */
      target_group_id: number;
      /** @description The audience, with its name. */
      target_group: {
        id: number;
        name: string;
      };
      /** @description The saved variables, as `vars` in the template. */
      variables: {
        [key: string]: unknown;
      };
      /** @description The route its messages take; null: the template's channel type, its default channel. */
      route:
        | {
            channel_id?: number;
            /** @enum {string} */
            channel?:
              'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
            template_id: number;
            /** @enum {string} */
            wait_for?: 'sent' | 'delivered' | 'read';
            /** @description An ISO 8601 duration from PT30S to P7D. */
            timeout?: string;
          }[]
        | null;
      /** @description An ISO 8601 time (one send then) or a cron expression of five fields (a send at each tick); null: sent only when asked. */
      schedule: string | null;
      /** @description The IANA time zone a cron `schedule` is read in. */
      schedule_timezone: string;
      /**
       * Format: date-time
       * @description When the schedule next starts a send; null without a schedule, after its time, or while disabled.
       */
      next_run_at: string | null;
      /** @description A disabled notification is not sent to its audience, by a schedule or when asked; test sends work. */
      enabled: boolean;
      /** @enum {string} */
      purpose: 'transactional' | 'marketing';
      /** @description At most this many of a send’s messages are made in any 60 seconds; null: no bound of its own. */
      throttle_per_minute: number | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A send of a notification (extensions §13, Sending): to its audience, started when asked or by its schedule, or a test send. */
    NotificationSend: {
      id: number;
      notification_id: number;
      /**
       * @description `queued`, then `preparing` (its audience is taken) and `sending`; `paused` when asked; it ends `completed` (every message made has left `queued`), `cancelled` or `failed`.
       * @enum {string}
       */
      status: 'queued' | 'preparing' | 'sending' | 'paused' | 'completed' | 'cancelled' | 'failed';
      /** @description One message to a test phone rather than the audience. */
      test_mode: boolean;
      /** @description The members the audience had when the send started (1 for a test send); null until then. */
      audience_size: number | null;
      /** @description Members left out because another member has the same recipient address. */
      deduplicated: number;
      /** @description The send's messages by how far each got. */
      counts: {
        /** @description Made and not yet sent, failed or suppressed. */
        queued: number;
        /** @description Reached `sent` (delivered and read ones too). */
        sent: number;
        /** @description Reached `delivered` (read ones too). */
        delivered: number;
        read: number;
        failed: number;
        suppressed: number;
      };
      /** @description Failed messages by `failure.code`. */
      failures_by_code: {
        [key: string]: number;
      };
      /**
       * Format: date-time
       * @description When the send took its audience; null before.
       */
      started_at: string | null;
      /**
       * Format: date-time
       * @description When it ended; null while it goes on.
       */
      finished_at: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description The send `POST /api/v1/notifications/send` queued; its progress is read at `GET /api/v1/notification-sends/{send_id}`. */
    NotificationSendAccepted: {
      send_id: number;
      notification_id: number;
      /**
       * @description A send starts queued.
       * @enum {string}
       */
      status: 'queued';
      test_mode: boolean;
    };
    /** @description An outbound webhook endpoint (extensions §4); never its secret. */
    WebhookEndpoint: {
      /** Format: uuid */
      id: string;
      /** @description An https URL. */
      url: string;
      description: string | null;
      /** @description The kinds it receives (a test delivery comes whatever they are). */
      event_types: (
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
      )[];
      /** @description Off after 25 failed deliveries in a row or a PATCH `enabled: false`: it then receives nothing. */
      enabled: boolean;
      /**
       * @description `failures` (switched off after 25 failed deliveries in a row), `manual` (a PATCH), or `null` while enabled.
       * @enum {string|null}
       */
      disabled_reason: 'failures' | 'manual' | null;
      /** @description Failed deliveries in a row since the last success (test deliveries not counted). */
      consecutive_failures: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description The endpoint just made, with its signing secret: the only answer that shows it. */
    WebhookEndpointCreated: {
      /** Format: uuid */
      id: string;
      /** @description An https URL. */
      url: string;
      description: string | null;
      /** @description The kinds it receives (a test delivery comes whatever they are). */
      event_types: (
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
      )[];
      /** @description Off after 25 failed deliveries in a row or a PATCH `enabled: false`: it then receives nothing. */
      enabled: boolean;
      /**
       * @description `failures` (switched off after 25 failed deliveries in a row), `manual` (a PATCH), or `null` while enabled.
       * @enum {string|null}
       */
      disabled_reason: 'failures' | 'manual' | null;
      /** @description Failed deliveries in a row since the last success (test deliveries not counted). */
      consecutive_failures: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description The signing secret (`whsec_` and 32 random bytes in base64url), in the clear only in this answer: keep it. Sign-checks use it as the HMAC key exactly as shown. */
      secret: string;
    };
    /** @description The new signing secret. For 24 hours every delivery carries a second `v1=` signature made with the previous one. */
    WebhookSecret: {
      /** @description The signing secret (`whsec_` and 32 random bytes in base64url), in the clear only in this answer: keep it. Sign-checks use it as the HMAC key exactly as shown. */
      secret: string;
    };
    /** @description One POST to the endpoint. */
    WebhookAttempt: {
      /** @description Counts every attempt the delivery ever had; a redelivery continues the count. */
      attempt: number;
      /** Format: date-time */
      at: string;
      /** @description The status the endpoint answered; `null` when it gave none (timeout, connection, TLS). */
      response_status: number | null;
      /** @description What the endpoint answered, cut to 16 KiB; `null` when it gave no answer. */
      response_body: string | null;
      duration_ms: number | null;
      /** @description Why the attempt failed (not a 2xx, a redirect, a timeout, DNS, TLS, …); `null` when it succeeded. */
      error: string | null;
    };
    /** @description One event sent to one endpoint, with every attempt. */
    WebhookDelivery: {
      /**
       * Format: uuid
       * @description The envelope id, sent as Service-Delivery.
       */
      id: string;
      /** Format: uuid */
      endpoint_id: string;
      /** @enum {string} */
      event_type:
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
        | 'webhook.test';
      /**
       * @description `failed` once all seven attempts of its round failed.
       * @enum {string}
       */
      status: 'pending' | 'succeeded' | 'failed';
      attempts: components['schemas']['WebhookAttempt'][];
      /**
       * Format: date-time
       * @description When the next attempt is due while `pending`; `null` once it succeeded or failed.
       */
      next_attempt_at: string | null;
      /** Format: date-time */
      created_at: string;
    };
    /** @description The body of every delivery, the same for all kinds. Fields are only ever added, never removed or renamed. */
    WebhookEnvelope: {
      /**
       * Format: uuid
       * @description The delivery id; equals the Service-Delivery header. De-duplicate with it.
       */
      id: string;
      /**
       * @description The event kind; equals the Service-Event header.
       * @enum {string}
       */
      type:
        | 'message.sent'
        | 'message.delivered'
        | 'message.read'
        | 'message.failed'
        | 'message.suppressed'
        | 'link.clicked'
        | 'outcome.recorded'
        | 'consent.granted'
        | 'consent.revoked'
        | 'alert.triggered'
        | 'webhook.test';
      /**
       * Format: date-time
       * @description When the event happened (UTC, with milliseconds).
       */
      created_at: string;
      /** @description Depends on the kind. */
      data: Record<string, unknown>;
    };
    /** @description The contact as webhooks show it, as the sending service knows it when the event happened. */
    WebhookContact: {
      id: number;
      external_id: string | null;
      name: string | null;
      phone: string | null;
      email: string | null;
    };
    /** @description data of message.sent, message.delivered, message.read, message.failed and message.suppressed: the message after the change it reports. */
    MessageEventData: {
      /** @description The message id. */
      id: string;
      /**
       * @description The stage the event reports (`sent` in message.sent, …).
       * @enum {string}
       */
      status: 'sent' | 'delivered' | 'read' | 'failed' | 'suppressed';
      /**
       * @description The channel type.
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @description The address the message went to (phone, email or the linked channel id); `null` when the contact had none. */
      recipient: string | null;
      /** @description The template name. */
      template: string | null;
      /** @description The automation that made the message; `null` for any other message. */
      workflow: {
        id: number;
        /** @description The workflow name when the message was made. */
        name: string;
        run_id: number;
        step: string;
      } | null;
      /** @description The broadcast that made the message; `null` for any other message. */
      campaign_id: number | null;
      /** @description True for the message of a notification's test send; false for every other message. */
      test: boolean;
      /** @description The bot that sent the message (extensions §12); `null` for any other message. */
      bot: {
        id: number;
        /** @description The bot's name when the message was made. */
        name: string;
        /** @description The conversation the message belongs to. */
        conversation_id: number;
      } | null;
      /** @description The message this one replaced when its route moved to the next step. */
      fallback_from: string | null;
      /** @description Why the message failed; `null` unless it failed. */
      failure: {
        /**
         * @description Why the message failed (extensions §9, Failure codes).
         * @enum {string}
         */
        code:
          | 'invalid_recipient'
          | 'not_on_channel'
          | 'landline'
          | 'unreachable'
          | 'opted_out'
          | 'blocked_by_recipient'
          | 'outside_window'
          | 'template_error'
          | 'content_filtered'
          | 'rate_limited'
          | 'bounced'
          | 'spam_complaint'
          | 'subscription_expired'
          | 'channel_misconfigured'
          | 'channel_disabled'
          | 'provider_unavailable'
          | 'expired'
          | 'provider_error';
        reason: string;
        fix: string;
        /** @description The provider's own code, as it wrote it. */
        provider_code: string | null;
      } | null;
      contact: components['schemas']['WebhookContact'];
      /** Format: date-time */
      sent_at: string | null;
      /** Format: date-time */
      delivered_at: string | null;
      /** Format: date-time */
      read_at: string | null;
      /** Format: date-time */
      failed_at: string | null;
    };
    /** @description data of link.clicked (extensions §10): the first human click of a tracked link of a message. */
    LinkClickedData: {
      message_id: string;
      /** @description The original URL the tracked link redirects to. */
      url: string;
      /** @description The link among the message’s tracked links, from 0. */
      link_index: number;
      contact: components['schemas']['WebhookContact'];
      /**
       * @description The channel type.
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @description The automation that made the message; `null` for any other message. */
      workflow: {
        id: number;
        /** @description The workflow name when the message was made. */
        name: string;
        run_id: number;
        step: string;
      } | null;
      /** @description The broadcast that made the message; `null` for any other message. */
      campaign_id: number | null;
      /** Format: date-time */
      clicked_at: string;
      /** @description The User-Agent of the click (at most 512 characters). */
      user_agent: string;
    };
    /** @description data of outcome.recorded (specification; extensions §12): a workflow reached its goal. */
    OutcomeRecordedData: {
      id: number;
      /** @description The goal event name. */
      goal: string;
      workflow: {
        id: number;
        name: string;
        run_id: number;
      };
      /** @description The run's message with the strongest engagement (clicked, then read, delivered, sent; the latest among equals), or `null`. */
      credited_message_id: string | null;
      /**
       * @description The channel type of the credited message; `null` with it.
       * @enum {string|null}
       */
      channel:
        'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push' | null;
      contact: components['schemas']['WebhookContact'];
      /** @description The goal event. */
      event: {
        id: number;
        /** @description The goal event's data. */
        data: {
          [key: string]: unknown;
        };
      };
      /**
       * Format: date-time
       * @description The goal event's time.
       */
      occurred_at: string;
    };
    /** @description data of consent.granted and consent.revoked: marketing consent on one channel changed. */
    ConsentEventData: {
      /**
       * @description The channel type.
       * @enum {string}
       */
      channel: 'whatsapp' | 'sms' | 'email' | 'rcs' | 'telegram' | 'messenger' | 'instagram' | 'browser_push';
      /** @enum {string} */
      status: 'granted' | 'revoked';
      /**
       * @description `api` (the public API: contact endpoints and events), `keyword` (an opt-out or opt-in word the contact sent), `provider` (a provider’s opt-out).
       * @enum {string}
       */
      source: 'api' | 'keyword' | 'provider';
      contact: components['schemas']['WebhookContact'];
    };
    /** @description data of alert.triggered (extensions §10): the alert as `GET /api/v1/alerts/{id}` showed it when the notification was made. */
    AlertTriggeredData: {
      id: string;
      rule_id: number;
      /** @enum {string} */
      status: 'firing' | 'resolved';
      /** @enum {string} */
      metric: 'failure_rate' | 'suppression_rate' | 'delivery_rate' | 'failure_count';
      /** @enum {string} */
      comparator: 'gt' | 'lt';
      /** @description The metric over the window. */
      value: number;
      threshold: number;
      window_minutes: number;
      /** @description Messages with an outcome in the window. */
      sample_size: number;
      /** @description The messages the rule watches; `{}` is the whole workspace. */
      scope: {
        channel_id?: number;
        workflow_id?: number;
        campaign_id?: number;
      };
      top_failure_codes: {
        /**
         * @description Why the message failed (extensions §9, Failure codes).
         * @enum {string}
         */
        code:
          | 'invalid_recipient'
          | 'not_on_channel'
          | 'landline'
          | 'unreachable'
          | 'opted_out'
          | 'blocked_by_recipient'
          | 'outside_window'
          | 'template_error'
          | 'content_filtered'
          | 'rate_limited'
          | 'bounced'
          | 'spam_complaint'
          | 'subscription_expired'
          | 'channel_misconfigured'
          | 'channel_disabled'
          | 'provider_unavailable'
          | 'expired'
          | 'provider_error';
        count: number;
        fix: string;
      }[];
      /** Format: date-time */
      started_at: string;
      /** Format: date-time */
      resolved_at: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** @description 1 when the alert starts (`firing`), 2 when it resolves (`resolved`). */
      notification_seq: number;
    };
    /** @description data of webhook.test: sent by `POST /api/v1/webhook-endpoints/{id}/test`. */
    WebhookTestData: {
      /** Format: uuid */
      endpoint_id: string;
      /** @description A fixed sentence saying it is a test. */
      message: string;
    };
    Health: {
      /** @enum {string} */
      status: 'ok';
      service: string;
    };
    Readiness: {
      /** @enum {string} */
      status: 'ready' | 'not_ready' | 'starting';
      service: string;
      checks?: {
        [key: string]: unknown;
      };
      failing?: string[];
      waiting_for?: {
        [key: string]: unknown;
      };
    };
    PageMeta: {
      current_page: number;
      per_page: number;
      total: number;
      last_page: number;
    };
    JsonApiErrors: {
      errors: components['schemas']['JsonApiError'][];
    };
    JsonApiError: {
      /** @example 422 */
      status: string;
      /** @example Validation Error */
      title: string;
      detail: string;
      source?: {
        /** @example /data/attributes/name */
        pointer: string;
        /** @description For a query parameter: its name. */
        parameter?: string;
      };
      /** @description On 5xx answers: the id of the log line that describes the fault. */
      id?: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  HealthController_health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The process answers. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  HealthController_ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every dependency is reachable and every consumer assigned. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
      /** @description Not ready: the failing checks are named (or, while starting, what it waits for). */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
    };
  };
  HealthController_metrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Metrics in the Prometheus text format. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
  AdminController_createWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWorkspaceBody'];
      };
    };
    responses: {
      /** @description Created: the workspace. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WorkspaceCreated'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Missing or wrong operator token. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The request was not answered in time. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AdminController_updateWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workspace id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWorkspaceBody'];
      };
    };
    responses: {
      /** @description The workspace as updated. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Workspace'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Missing or wrong operator token. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, or an identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The request was not answered in time. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AdminController_createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workspace id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyBody'];
      };
    };
    responses: {
      /** @description Created: the key, with `key`. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ApiKeyCreated'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Missing or wrong operator token. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, or an identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The request was not answered in time. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AdminController_deleteApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description API key id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or wrong operator token. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, or an identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The request was not answered in time. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  CurrentKeyController_current: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key and its workspace. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['CurrentApiKey'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_listEvents: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description Only events of this name (exact). */
        'filter[name]'?: string;
        /** @description Only events of this contact (an id). */
        'filter[contact_id]'?: string;
        /** @description The same as `filter[name]`. */
        name?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of events. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['RecordedEvent'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_recordEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional, 1–255 characters: identifies the real-world occurrence, so a retry is recorded once. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RecordEventBody'];
      };
    };
    responses: {
      /** @description The Idempotency-Key was already used: the original event; nothing recorded again. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['RecordedEvent'];
          };
        };
      };
      /** @description Recorded: the event. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['RecordedEvent'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_upsertContact: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpsertContactBody'];
      };
    };
    responses: {
      /** @description An existing contact matched and was updated: the contact. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description Created: the contact. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_batchUpsert: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BatchUpsertContactsBody'];
      };
    };
    responses: {
      /** @description One result per element, and their counts. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ContactBatchResult'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_listContacts: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description The phone (read as the events endpoint reads it, so any format of the same number matches). */
        'filter[phone]'?: string;
        /** @description The email, in any case. */
        'filter[email]'?: string;
        /** @description The external_id (exact). */
        'filter[external_id]'?: string;
        /** @description The whole name, in any case. */
        'filter[name]'?: string;
        /** @description Contacts holding this tag: a tag id, or otherwise a tag name (exact). */
        'filter[tag]'?: string;
        /** @description A part of the name, email or phone, in any case. */
        'filter[search]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of contacts. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_getContact: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Contact id: digits only, 1 to 2^53 − 1; any other form is 404. */
        contact_id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The contact. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_updateContact: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Contact id: digits only, 1 to 2^53 − 1; any other form is 404. */
        contact_id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateContactBody'];
      };
    };
    responses: {
      /** @description The contact as updated. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid fields, or a phone, external_id or email that another contact holds; each with its pointer. */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_linkChannel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        channel: string;
        /** @description Contact id: digits only, 1 to 2^53 − 1; any other form is 404. */
        contact_id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LinkChannelBody'];
      };
    };
    responses: {
      /** @description The contact with its channels. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_listTags: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of tags. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Tag'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_createTag: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTagBody'];
      };
    };
    responses: {
      /** @description Created: the tag. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Tag'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_syncTags: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TagAssignmentBody'];
      };
    };
    responses: {
      /** @description The contact with its tags. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_attachTags: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TagAssignmentBody'];
      };
    };
    responses: {
      /** @description The contact with its tags. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_detachTags: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TagAssignmentBody'];
      };
    };
    responses: {
      /** @description The contact with its tags. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Contact'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_getTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Tag id: digits only, 1 to 2^53 − 1; any other form is 404. */
        tag_id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tag. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Tag'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_deleteTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Tag id: digits only, 1 to 2^53 − 1; any other form is 404. */
        tag_id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted; no body. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ContactsApiController_updateTag: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Tag id: digits only, 1 to 2^53 − 1; any other form is 404. */
        tag_id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateTagBody'];
      };
    };
    responses: {
      /** @description The tag as updated. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Tag'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of endpoints. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpoint'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookEndpointBody'];
      };
    };
    responses: {
      /** @description Created, with its secret. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpointCreated'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpoint'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateWebhookEndpointBody'];
      };
    };
    responses: {
      /** @description Changed. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpoint'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_rollSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new secret. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookSecret'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_deliveries: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description `pending`, `succeeded` or `failed`. */
        'filter[status]'?: string;
        /** @description Only deliveries of this kind (`webhook.test` for test deliveries). */
        'filter[event_type]'?: string;
      };
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of deliveries. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookDelivery'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_redeliver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Delivery id (a UUID); any other form is 404. */
        delivery_id: string;
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery, pending again. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookDelivery'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WebhookEndpointsApiController_test: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Webhook endpoint id (a UUID); any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The test delivery, pending. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookDelivery'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  IntegrationsController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of integrations. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Integration'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  IntegrationsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateIntegrationBody'];
      };
    };
    responses: {
      /** @description Created: the integration with its webhook URL and signing secret. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['IntegrationCreated'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  IntegrationsController_one: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Integration id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The integration. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Integration'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  InboundWebhookController_receive: {
    parameters: {
      query?: never;
      header: {
        /** @description [sha256=]<hex HMAC-SHA256 of the raw body> */
        'X-Webhook-Signature': string;
        /** @description 1–255 characters: a retry with the same key is recorded once. */
        'Idempotency-Key'?: string;
      };
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Event name; without it the payload only adds or updates the contact. */
          event?: string;
          /** @description The event data (with event). */
          data?: Record<string, unknown>;
          /**
           * Format: date-time
           * @description With event.
           */
          occurred_at?: string | null;
          /** @description Retry id: a payload with the same id is recorded once. Also the contact ID after external_id. */
          id?: string | number;
          external_id?: string | number;
          phone?: string | number;
          /** Format: email */
          email?: string;
          name?: string;
          first_name?: string;
          last_name?: string;
          /** @description Channel name to boolean; omitted channels unchanged. */
          marketing_consent?: {
            [key: string]: boolean;
          };
          /** @description true grants, false withdraws marketing consent on every channel. */
          opt_in?: boolean;
          contact?: {
            id?: string | number;
            external_id?: string | number;
            phone?: string | number;
            /** Format: email */
            email?: string;
            name?: string;
            first_name?: string;
            last_name?: string;
            /** @description Custom fields stored on the contact. */
            data?: Record<string, unknown>;
            marketing_consent?: {
              [key: string]: boolean;
            };
          };
        } & {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description A retry (same Idempotency-Key or payload id): the original ids; nothing recorded again. */
      200: {
        headers: {
          /** @description Requests this integration may receive a minute (1,200). */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['InboundWebhookAnswer'];
          };
        };
      };
      /** @description Recorded: the event id (null without an event) and the contact id. */
      202: {
        headers: {
          /** @description Requests this integration may receive a minute (1,200). */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['InboundWebhookAnswer'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The URL names no integration, or X-Webhook-Signature is missing, malformed or wrong; nothing is recorded. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The payload is not an object, breaks a rule every body meets (nesting, U+0000, lone surrogates), has no phone, email or ID, or a value fails the rules of POST /api/v1/events. */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description More than 1,200 requests a minute for this integration. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The request was not answered in time; retry with the same Idempotency-Key or id. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description A channel type (whatsapp, sms, email, rcs, telegram, messenger, instagram, browser_push). */
        'filter[type]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of channels, credentials masked. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Channel'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateChannelBody'];
      };
    };
    responses: {
      /** @description The channel, credentials masked. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Channel'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Channel id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The channel, credentials masked. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Channel'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Channel id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description A bot's `settings.channel_id` names the channel (`Channel 3 is used by bot 2 ("Welcome")`); change or delete the bots first. */
      409: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Channel id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateChannelBody'];
      };
    };
    responses: {
      /** @description The channel as changed, credentials masked. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Channel'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_subscribe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Channel id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreatePushSubscriptionBody'];
      };
    };
    responses: {
      /** @description The subscription. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['PushSubscription'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ChannelsApiController_sandboxInbound: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Channel id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SandboxInboundBody'];
      };
    };
    responses: {
      /** @description The inbound message, as recorded. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['InboundMessage'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description The exact name. */
        'filter[name]'?: string;
        /** @description A channel type. */
        'filter[channel]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of templates. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Template'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTemplateBody'];
      };
    };
    responses: {
      /** @description The template. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Template'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The template. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Template'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateTemplateBody'];
      };
    };
    responses: {
      /** @description The template as changed. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Template'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  TemplatesApiController_render: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RenderTemplateBody'];
      };
    };
    responses: {
      /** @description The rendered subject, body and html. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['RenderedTemplate'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  MessagesApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description A status (queued, sent, delivered, read, failed, suppressed, received). */
        'filter[status]'?: string;
        /** @description A channel type. */
        'filter[channel]'?: string;
        /** @description A contact id. */
        'filter[contact_id]'?: string;
        /** @description A workflow id. */
        'filter[workflow_id]'?: string;
        /** @description A campaign (notification) id. */
        'filter[campaign_id]'?: string;
        /** @description `outbound` or `inbound`. */
        'filter[direction]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of messages. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Message'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  MessagesApiController_send: {
    parameters: {
      query?: never;
      header?: {
        /** @description A retry with the same key (1 to 255 characters) answers the original message with 200. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SendMessageBody'];
      };
    };
    responses: {
      /** @description A repeated Idempotency-Key: the original message as it stands when the retry is decided (nothing is sent again). */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Message'];
          };
        };
      };
      /** @description Accepted: the message of the first route step, queued. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Message'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  MessagesApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Message id: `msg_` and 32 lower-case hexadecimal digits; any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The message. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Message'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_listRules: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description failure_rate, suppression_rate, delivery_rate or failure_count. */
        'filter[metric]'?: string;
        /** @description `true` or `false`. */
        'filter[enabled]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of rules. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AlertRule'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateAlertRuleBody'];
      };
    };
    responses: {
      /** @description The rule. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AlertRule'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_getRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Alert rule id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rule. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AlertRule'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Alert rule id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Alert rule id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateAlertRuleBody'];
      };
    };
    responses: {
      /** @description The rule as changed. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AlertRule'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_listAlerts: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description `firing` or `resolved`. */
        'filter[status]'?: string;
        /** @description The id of the rule that raised it. */
        'filter[rule_id]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of alerts. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Alert'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AlertsApiController_getAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Alert id: `alert_` and 32 lower-case hexadecimal digits; any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The alert. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Alert'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  SuppressionsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description A channel type. */
        'filter[channel]'?: string;
        /** @description An address, normalised like entries (an email in lower case, a phone number in E.164). */
        'filter[address]'?: string;
        /** @description opted_out, bounced, spam_complaint, invalid_recipient or manual (anything else → 422). */
        'filter[reason]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of entries. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Suppression'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  SuppressionsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSuppressionBody'];
      };
    };
    responses: {
      /** @description Already on the list: the entry there, unchanged. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Suppression'];
          };
        };
      };
      /** @description Added. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Suppression'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  SuppressionsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Suppression id: `sup_` and 32 lower-case hexadecimal digits; any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entry. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Suppression'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  SuppressionsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Suppression id: `sup_` and 32 lower-case hexadecimal digits; any other form is 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description Only the audience of this exact name. */
        'filter[name]'?: string;
        /** @description `filters` or `import`. */
        'filter[source]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of audiences. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Audience'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateAudienceBody'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AudienceWritten'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Audience id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The audience. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Audience'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Audience id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Another audience's filter names this one (`Audience 4 is used by the filter of audience 7`), a notification sends to it (`Audience 4 is used by notification 3 ("Spring sale")`), or a bot's `target_group_id` names it (`Audience 4 is used by bot 2 ("Welcome")`), the notifications and the bots each in an error of their own; change or delete those first. */
      409: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Audience id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateAudienceBody'];
      };
    };
    responses: {
      /** @description Changed. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AudienceWritten'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudiencesApiController_preview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PreviewAudienceBody'];
      };
    };
    responses: {
      /** @description The preview. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['AudiencePreview'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description `true` or `false`. */
        'filter[enabled]'?: string;
        /** @description The exact name. */
        'filter[name]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of workflows. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Workflow'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkflowBody'];
      };
    };
    responses: {
      /** @description The workflow. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Workflow'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workflow id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The workflow. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Workflow'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workflow id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workflow id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkflowBody'];
      };
    };
    responses: {
      /** @description The workflow. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Workflow'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description `ai` or `flow`. */
        'filter[mode]'?: string;
        /** @description `keyword`, `any_message`, `event` or `schedule`. */
        'filter[trigger_type]'?: string;
        /** @description `true` or `false`. */
        'filter[enabled]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of bots. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Bot'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BotBody'];
      };
    };
    responses: {
      /** @description The bot. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Bot'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Bot id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The bot. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Bot'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Bot id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Bot id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BotBody'];
      };
    };
    responses: {
      /** @description The bot. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Bot'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_conversations: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description `active`, `completed`, `expired` or `failed`. */
        'filter[status]'?: string;
        /** @description A contact id. */
        'filter[contact_id]'?: string;
      };
      header?: never;
      path: {
        /** @description Bot id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of conversations. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['BotConversation'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  BotsApiController_conversation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Bot conversation id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The conversation. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['BotConversation'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowRunsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description A status (active, waiting, completed, goal_reached, exited, failed). */
        'filter[status]'?: string;
        /** @description A contact id. */
        'filter[contact_id]'?: string;
      };
      header?: never;
      path: {
        /** @description Workflow id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of runs. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WorkflowRun'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  WorkflowRunsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Workflow run id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WorkflowRun'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  OutcomesApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description A workflow id. */
        'filter[workflow_id]'?: string;
        /** @description A contact id. */
        'filter[contact_id]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of outcomes. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Outcome'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  OutcomesApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Outcome id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The outcome. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Outcome'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_list: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
        /** @description The name. */
        'filter[name]'?: string;
        /** @description The template's name. */
        'filter[template_name]'?: string;
        /** @description The schedule as stored (an ISO 8601 time or a cron expression). */
        'filter[schedule]'?: string;
        /** @description The audience id. */
        'filter[target_group_id]'?: string;
        /** @description The audience's name. */
        'filter[target_group.name]'?: string;
        /** @description `true` or `false`. */
        'filter[enabled]'?: string;
        /** @description A part of the name or of the template's name, in any case. */
        'filter[search]'?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of notifications. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Notification'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          template_id: number;
          /** @description An audience. */
          target_group_id: number;
          /** @description At most 64 KiB as JSON. */
          variables?: {
            [key: string]: unknown;
          };
          route?:
            | {
                channel_id?: number;
                /** @enum {string} */
                channel?:
                  | 'whatsapp'
                  | 'sms'
                  | 'email'
                  | 'rcs'
                  | 'telegram'
                  | 'messenger'
                  | 'instagram'
                  | 'browser_push';
                template_id: number;
                /** @enum {string} */
                wait_for?: 'sent' | 'delivered' | 'read';
                /** @description An ISO 8601 duration from PT30S to P7D. */
                timeout?: string;
              }[]
            | null;
          /** @description An ISO 8601 time with its offset, not in the past, or a cron expression of five fields. */
          schedule?: string | null;
          /** @description An IANA time zone name, such as `Europe/Berlin`. */
          schedule_timezone?: string;
          enabled?: boolean;
          /** @enum {string} */
          purpose?: 'transactional' | 'marketing';
          throttle_per_minute?: number | null;
        };
      };
    };
    responses: {
      /** @description The notification. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Notification'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_send: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          notification_id: number;
          /**
           * @deprecated
           * @description Deprecated and ignored: the saved audience is sent.
           */
          notification_audience?: string;
          /**
           * @deprecated
           * @description Deprecated and ignored: the saved template is sent.
           */
          notification_template?: string;
          /** @default false */
          test_mode?: boolean;
          /** @description Required with `test_mode`: a phone number with its country code. */
          test_phone?: string;
        };
      };
    };
    responses: {
      /** @description Queued: the send. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSendAccepted'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_batchSend: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          notification_id: number;
          /**
           * @deprecated
           * @description Deprecated and ignored: the saved audience is sent.
           */
          notification_audience?: string | null;
          /**
           * @deprecated
           * @description Deprecated and ignored: the saved template is sent.
           */
          notification_template?: string | null;
          /** @default false */
          test_mode?: boolean;
          /** @description Required with `test_mode`: a phone number with its country code. */
          test_phone?: string | null;
        };
      };
    };
    responses: {
      /** @description Queued: the send. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSendAccepted'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The notification. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Notification'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          template_id?: number;
          /** @description An audience. */
          target_group_id?: number;
          /** @description At most 64 KiB as JSON. */
          variables?: {
            [key: string]: unknown;
          };
          route?:
            | {
                channel_id?: number;
                /** @enum {string} */
                channel?:
                  | 'whatsapp'
                  | 'sms'
                  | 'email'
                  | 'rcs'
                  | 'telegram'
                  | 'messenger'
                  | 'instagram'
                  | 'browser_push';
                template_id: number;
                /** @enum {string} */
                wait_for?: 'sent' | 'delivered' | 'read';
                /** @description An ISO 8601 duration from PT30S to P7D. */
                timeout?: string;
              }[]
            | null;
          /** @description An ISO 8601 time with its offset, not in the past, or a cron expression of five fields. */
          schedule?: string | null;
          /** @description An IANA time zone name, such as `Europe/Berlin`. */
          schedule_timezone?: string;
          enabled?: boolean;
          /** @enum {string} */
          purpose?: 'transactional' | 'marketing';
          throttle_per_minute?: number | null;
        };
      };
    };
    responses: {
      /** @description The notification as changed. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['Notification'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationsApiController_sends: {
    parameters: {
      query?: {
        /** @description The page, from 1. */
        page?: number;
        /** @description Items per page (at most 100; more → 422). */
        per_page?: number;
      };
      header?: never;
      path: {
        /** @description Notification id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of sends. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSend'][];
            meta: components['schemas']['PageMeta'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationSendsApiController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification send id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The send. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSend'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationSendsApiController_pause: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification send id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The send, as the action left it. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSend'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The send is in a status the action does not apply to; nothing changed. */
      409: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationSendsApiController_resume: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification send id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The send, as the action left it. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSend'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The send is in a status the action does not apply to; nothing changed. */
      409: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  NotificationSendsApiController_cancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Notification send id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The send, as the action left it. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['NotificationSend'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The send is in a status the action does not apply to; nothing changed. */
      409: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ProviderCallbackController_receiveGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Recorded (`{}`), or the handshake challenge (text/plain). */
      200: {
        headers: {
          /** @description Callbacks this URL may take in the rate-limit window. */
          'X-RateLimit-Limit'?: number;
          /** @description Callbacks left in the window. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, unknown>;
          'text/plain': string;
        };
      };
      /** @description The provider's signature is missing or does not match the channel's credentials; nothing is recorded. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description A subscription handshake whose verify token is not the channel’s. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The URL names no channel. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is neither application/json nor application/x-www-form-urlencoded. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description More callbacks to this URL than its limit; Retry-After says when. */
      429: {
        headers: {
          /** @description Callbacks this URL may take in the rate-limit window. */
          'X-RateLimit-Limit'?: number;
          /** @description Callbacks left in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The callback could not be checked or recorded now; the provider sends it again. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  ProviderCallbackController_receivePost: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
        'application/x-www-form-urlencoded': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Recorded. */
      200: {
        headers: {
          /** @description Callbacks this URL may take in the rate-limit window. */
          'X-RateLimit-Limit'?: number;
          /** @description Callbacks left in the window. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, unknown>;
        };
      };
      /** @description The provider's signature is missing or does not match the channel's credentials; nothing is recorded. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description A subscription handshake whose verify token is not the channel’s. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The URL names no channel. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is neither application/json nor application/x-www-form-urlencoded. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description More callbacks to this URL than its limit; Retry-After says when. */
      429: {
        headers: {
          /** @description Callbacks this URL may take in the rate-limit window. */
          'X-RateLimit-Limit'?: number;
          /** @description Callbacks left in the window. */
          'X-RateLimit-Remaining'?: number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The callback could not be checked or recorded now; the provider sends it again. */
      503: {
        headers: {
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  LinkRedirectController_redirect: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description To the original URL. */
      302: {
        headers: {
          /** @description The original URL (characters a header cannot carry percent-encoded, nothing else changed). */
          Location?: string;
          /** @description `no-store`: every click comes back. */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No tracked link has this address. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many clicks from this client for a link the gateway would have to look up. */
      429: {
        headers: {
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many lookups under way, or the messaging service did not answer; retry. */
      503: {
        headers: {
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudienceImportJobsController_process: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ProcessImportBody'];
      };
    };
    responses: {
      /** @description Queued; read the job for its progress. */
      202: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ImportJobQueued'];
          };
        };
      };
      /** @description The body is not valid UTF-8 or not valid JSON. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is larger than 1 MiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not application/json. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudienceImportJobsController_job: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Import job id: digits only, 1 to 2^53 − 1; any other form is 404. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The job. */
      200: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ImportJob'];
          };
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1. */
      404: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Invalid request; every failing field has its own error with a pointer (rules: see the description). */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  AudienceImportUploadController_preview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The CSV file.
           */
          file: string;
        };
      };
    };
    responses: {
      /** @description Stored; the preview. */
      201: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ImportUpload'];
          };
        };
      };
      /** @description The body is not well-formed multipart/form-data. */
      400: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No API key, or an invalid or deleted one. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The key lacks the permission, or the plan does not include this API. */
      403: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Nothing of the file arrived for 30 seconds. */
      408: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The file is larger than 50 MiB (pointer `/data/attributes/file`; nothing is stored), or the form has more than 30 parts, 10 files, 20 fields or a field over 64 KiB. */
      413: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The body is not multipart/form-data. */
      415: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description No part named `file`, or a file the rules refuse (not UTF-8, U+0000, no or a bad header row, a value past the last column, a row over 1 MiB, more than 1,000,000 rows, an unclosed quote); pointer `/data/attributes/file`. */
      422: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description Too many requests for the key; or the workspace has 2 uploads in progress, or holds 250 MiB of uploads made in the last 24 hours, or the service takes as many uploads as it can at once; Retry-After says when to send the file again. Pointer `/data/attributes/file`. */
      429: {
        headers: {
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit': number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining': number;
          /** @description Seconds to wait. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
      /** @description The owning service did not answer in time, or the gateway is starting; retry with backoff. The rate-limit headers are there when the key could be checked. */
      503: {
        headers: {
          'Retry-After'?: number;
          /** @description Requests allowed a minute for the limit that applies. */
          'X-RateLimit-Limit'?: number;
          /** @description Requests left this minute. */
          'X-RateLimit-Remaining'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JsonApiErrors'];
        };
      };
    };
  };
  webhookMessageSent: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'message.sent';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `message.sent`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'message.sent';
          data?: components['schemas']['MessageEventData'] & {
            /** @enum {string} */
            status?: 'sent';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookMessageDelivered: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'message.delivered';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `message.delivered`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'message.delivered';
          data?: components['schemas']['MessageEventData'] & {
            /** @enum {string} */
            status?: 'delivered';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookMessageRead: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'message.read';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `message.read`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'message.read';
          data?: components['schemas']['MessageEventData'] & {
            /** @enum {string} */
            status?: 'read';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookMessageFailed: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'message.failed';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `message.failed`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'message.failed';
          data?: components['schemas']['MessageEventData'] & {
            /** @enum {string} */
            status?: 'failed';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookMessageSuppressed: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'message.suppressed';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `message.suppressed`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'message.suppressed';
          data?: components['schemas']['MessageEventData'] & {
            /** @enum {string} */
            status?: 'suppressed';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookLinkClicked: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'link.clicked';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `link.clicked`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'link.clicked';
          data?: components['schemas']['LinkClickedData'];
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookOutcomeRecorded: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'outcome.recorded';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `outcome.recorded`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'outcome.recorded';
          data?: components['schemas']['OutcomeRecordedData'];
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookConsentGranted: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'consent.granted';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `consent.granted`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'consent.granted';
          data?: components['schemas']['ConsentEventData'] & {
            /** @enum {string} */
            status?: 'granted';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookConsentRevoked: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'consent.revoked';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `consent.revoked`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'consent.revoked';
          data?: components['schemas']['ConsentEventData'] & {
            /** @enum {string} */
            status?: 'revoked';
          };
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookAlertTriggered: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'alert.triggered';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `alert.triggered`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'alert.triggered';
          data?: components['schemas']['AlertTriggeredData'];
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookTest: {
    parameters: {
      query?: never;
      header: {
        /** @description Always `application/json`. */
        'Content-Type': 'application/json';
        /** @description Always `Service-Webhooks/1.0`. */
        'User-Agent': 'Service-Webhooks/1.0';
        /** @description The event kind; equals the envelope `type`. */
        'Service-Event': 'webhook.test';
        /** @description The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it. */
        'Service-Delivery': string;
        /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API. */
        'Service-Signature': string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description The envelope, `type` `webhook.test`; signed as Service-Signature says. */
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEnvelope'] & {
          /** @enum {string} */
          type?: 'webhook.test';
          data?: components['schemas']['WebhookTestData'];
        };
      };
    };
    responses: {
      /** @description Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt). */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
