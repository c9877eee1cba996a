/** The console's sections, in the order the navigation lists them; every path is a page of `routes.tsx`. */
export const NAVIGATION: ReadonlyArray<{
  group: string;
  links: ReadonlyArray<{ label: string; to: string }>;
}> = [
  { group: 'Workspace', links: [{ label: 'Overview', to: '/' }] },
  {
    group: 'People',
    links: [
      { label: 'Contacts', to: '/contacts' },
      { label: 'Tags', to: '/tags' },
      { label: 'Audiences', to: '/audiences' },
      { label: 'Imports', to: '/imports' },
    ],
  },
  {
    group: 'Messaging',
    links: [
      { label: 'Messages', to: '/messages' },
      { label: 'Channels', to: '/channels' },
      { label: 'Templates', to: '/templates' },
      { label: 'Suppressions', to: '/suppressions' },
    ],
  },
  {
    group: 'Automation',
    links: [
      { label: 'Workflows', to: '/workflows' },
      { label: 'Outcomes', to: '/outcomes' },
      { label: 'Bots', to: '/bots' },
      { label: 'Notifications', to: '/notifications' },
    ],
  },
  {
    group: 'Integrations',
    links: [
      { label: 'Webhook endpoints', to: '/webhook-endpoints' },
      { label: 'Alert rules', to: '/alert-rules' },
      { label: 'Alerts', to: '/alerts' },
    ],
  },
];
