import { Badge } from '@mantine/core';

import type { Schema } from '../../api';

export type Message = Schema<'Message'>;
export type ChannelType = Message['channel'];

export const CHANNEL_TYPES: ChannelType[] = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
];

export const MESSAGE_STATUSES: Array<Message['status']> = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'suppressed',
  'received',
];

/**
 * A status that can still change on its own. `queued` and `sent` move on (sent → delivered → read);
 * delivered can still become read, but it is what a person waits for, so polling stops there.
 */
export function isMoving(status: Message['status']): boolean {
  return status === 'queued' || status === 'sent';
}

const STATUS_COLORS: Record<Message['status'], string> = {
  queued: 'blue',
  sent: 'teal',
  delivered: 'green',
  read: 'green',
  failed: 'red',
  suppressed: 'orange',
  received: 'gray',
};

/**
 * A message status as a badge: the word always shows; the text uses the darkest shade of its colour so
 * every status meets the contrast ratio (the colour is a dot beside the word).
 */
export function MessageStatus({ status }: { status: Message['status'] }) {
  const color = STATUS_COLORS[status];
  return (
    <Badge
      variant="default"
      leftSection={
        <span
          aria-hidden="true"
          style={{
            display: 'inline-block',
            width: 8,
            height: 8,
            borderRadius: 4,
            background: `var(--mantine-color-${color}-7)`,
          }}
        />
      }
    >
      {status}
    </Badge>
  );
}
