import { Button, ColorInput, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouteObject } from 'react-router';

import { ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { ConfirmButton, PageHeader, QueryState, ResourceTable, Section, Time } from '../../components/ui';
import { Can, useApi } from '../../session';

type Tag = Schema<'Tag'>;

/** The workspace's tags: list, create, rename or recolour, delete (detached from every contact). */
function TagsPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const tags = useQuery({
    queryKey: ['tags', page],
    queryFn: () => ok(api.GET('/api/v1/tags', { params: { query: { page, per_page: 50 } } })),
  });
  return (
    <>
      <PageHeader title="Tags" description="Labels on contacts; audiences and bots select by them." />
      <Can permission="create">
        <Section title="New tag">
          <TagForm />
        </Section>
      </Can>
      <Section title="All tags">
        <QueryState isPending={tags.isPending} error={tags.error}>
          {() => (
            <ResourceTable<Tag>
              caption="Tags"
              rows={tags.data!.data}
              meta={tags.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(tag) => tag.id}
              columns={[
                { header: 'Name', cell: (tag) => tag.name },
                { header: 'Colour', cell: (tag) => tag.color ?? '—' },
                { header: 'Created', cell: (tag) => <Time at={tag.created_at} /> },
                {
                  header: 'Actions',
                  cell: (tag) => (
                    <Group gap="xs" wrap="wrap">
                      <Can permission="update">
                        <RenameTag tag={tag} />
                      </Can>
                      <Can permission="delete">
                        <ConfirmButton
                          label="Delete"
                          title={`Delete the tag ${tag.name}?`}
                          message="It is detached from every contact. Audiences and bots that name it may stop matching."
                          action={() =>
                            ok(api.DELETE('/api/v1/tags/{tag_id}', { params: { path: { tag_id: tag.id } } }))
                          }
                          invalidates={[['tags']]}
                        />
                      </Can>
                    </Group>
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** Renames or recolours a tag, in a dialog. */
function RenameTag({ tag }: { tag: Tag }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="sm" onClick={open} aria-label={`Edit the tag ${tag.name}`}>
        Edit
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={`Edit the tag ${tag.name}`}
        centered
        closeButtonProps={{ 'aria-label': 'Close the dialog' }}
      >
        <TagForm tag={tag} onSaved={close} />
      </Modal>
    </>
  );
}

/** Creates a tag, or (given one) renames and recolours it. */
function TagForm({ tag, onSaved }: { tag?: Tag; onSaved?(): void }) {
  const api = useApi();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? '');
  const save = useSubmit(
    () => {
      const body = { name, ...(color ? { color } : {}) };
      return tag
        ? ok(api.PATCH('/api/v1/tags/{tag_id}', { params: { path: { tag_id: tag.id } }, body }))
        : ok(api.POST('/api/v1/tags', { body }));
    },
    {
      invalidates: [['tags']],
      onSuccess: () => {
        onSaved?.();
        if (!tag) {
          setName('');
          setColor('');
        }
      },
    },
  );
  return (
    <ApiForm
      label={tag ? `Edit the tag ${tag.name}` : 'New tag'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['name', 'color']}
      submitLabel={tag ? 'Save' : 'Create tag'}
      pending={save.isPending}
    >
      <Stack gap="xs">
        <Group align="flex-start" wrap="wrap" gap="xs">
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={save.problems.field('name')}
          />
          <ColorInput
            label="Colour"
            format="hex"
            withEyeDropper={false}
            value={color}
            onChange={setColor}
            error={save.problems.field('color')}
          />
        </Group>
      </Stack>
    </ApiForm>
  );
}

export const routes: RouteObject[] = [{ path: 'tags', element: <TagsPage /> }];
