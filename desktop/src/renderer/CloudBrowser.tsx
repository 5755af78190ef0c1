/**
 * The browse panel: a connected account's folders and files in a modal dialog, opened from the upload
 * form. Folders open in place (breadcrumbs lead back), a search looks through the whole account, and
 * several files are ticked at once, across folders and searches, then added to the form together. The
 * listing comes from the main process, which holds the account; nothing is downloaded here.
 */
import { formatBytes } from '@avp/shared';
import { Button, Checkbox, TextField } from '@avp/web/ui';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { CloudItem, CloudProvider, DesktopApi } from './api';

export interface CloudBrowserProps {
  api: DesktopApi;
  provider: CloudProvider;
  providerName: string;
  /** The refs already in the form, shown ticked and not added twice. */
  chosen: ReadonlySet<string>;
  onAdd: (items: CloudItem[]) => void;
  onClose: () => void;
}

interface Crumb {
  id: string | null;
  name: string;
}

type View = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'items'; items: CloudItem[] };

const modified = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—';

export function CloudBrowser({ api, provider, providerName, chosen, onAdd, onClose }: CloudBrowserProps) {
  const [trail, setTrail] = useState<Crumb[]>([{ id: null, name: providerName }]);
  /** The search shown instead of the folder (null: the folder at the end of the trail). */
  const [searched, setSearched] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [loaded, setLoaded] = useState<{ key: string; view: View } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [selected, setSelected] = useState<Map<string, CloudItem>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const place = useRef<HTMLHeadingElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const moved = useRef(false);
  const folder = trail[trail.length - 1]!;

  /** What the list shows: the folder at the end of the trail or the search, and the attempt (Try again). */
  const key = `${folder.id ?? ''}\u0000${searched ?? ''}\u0000${attempt}`;
  const view: View = loaded?.key === key ? loaded.view : { kind: 'loading' };

  useEffect(() => {
    let live = true;
    const settle = (next: View, said: string) => {
      if (!live) return;
      setLoaded({ key, view: next });
      setAnnouncement(said);
    };
    (searched ? api.searchCloud(provider, searched) : api.browseCloud(provider, folder.id)).then(
      (result) => {
        if (!result.ok) return settle({ kind: 'error', message: result.message }, result.message);
        const items = Array.isArray(result.value) ? result.value : result.value.items;
        const count = `${items.length} ${items.length === 1 ? 'item' : 'items'}`;
        settle(
          { kind: 'items', items },
          searched ? `${count} found for “${searched}”.` : `${folder.name}: ${count}.`,
        );
      },
      (error: Error) => {
        const message = `${providerName} could not be listed: ${error.message}`;
        settle({ kind: 'error', message }, message);
      },
    );
    return () => {
      live = false;
    };
  }, [api, provider, providerName, folder, searched, key]);

  // The dialog opens on its search field (the list below is reached with Tab).
  useEffect(() => {
    searchField.current?.focus();
  }, []);

  // After opening a folder or a search, the focus goes to where the user now is, so a keyboard or
  // screen-reader user hears it and continues from the top of the list.
  useEffect(() => {
    if (moved.current && view.kind !== 'loading') {
      moved.current = false;
      place.current?.focus();
    }
  }, [view.kind, key]);

  const open = (next: Crumb[]) => {
    moved.current = true;
    setSearched(null);
    setTrail(next);
  };

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = query.trim();
    if (!text) return;
    moved.current = true;
    setSearched(text);
  }

  const toggle = (item: CloudItem, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(item.ref, item);
      else next.delete(item.ref);
      return next;
    });

  const count = selected.size;
  const addLabel = count === 0 ? 'Add files' : `Add ${count} ${count === 1 ? 'file' : 'files'}`;
  const placeName = searched ? `Search results for “${searched}”` : folder.name;

  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen
      isDismissable
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
    >
      <Modal className="kit-modal app-browse">
        <Dialog className="kit-dialog app-browse__dialog">
          <Heading slot="title" className="kit-dialog__title">
            Add from {providerName}
          </Heading>
          <form className="app-browse__search" role="search" onSubmit={search}>
            <TextField
              label={`Search ${providerName}`}
              type="search"
              value={query}
              onChange={setQuery}
              inputRef={searchField}
            />
            <Button type="submit" variant="secondary" isDisabled={query.trim() === ''}>
              Search
            </Button>
          </form>
          <nav aria-label="Folders" className="app-browse__crumbs">
            <ol>
              {trail.map((crumb, index) =>
                index < trail.length - 1 || searched ? (
                  <li key={crumb.id ?? 'root'}>
                    <button
                      type="button"
                      className="app-link-button"
                      onClick={() => open(trail.slice(0, index + 1))}
                    >
                      {crumb.name}
                    </button>
                  </li>
                ) : (
                  <li key={crumb.id ?? 'root'} aria-current="location">
                    {crumb.name}
                  </li>
                ),
              )}
              {searched ? <li aria-current="location">Search: {searched}</li> : null}
            </ol>
          </nav>
          <h3 className="app-browse__place" ref={place} tabIndex={-1}>
            {placeName}
          </h3>
          <div className="app-browse__list">
            {view.kind === 'loading' ? (
              <p className="app-loading" role="status">
                Loading…
              </p>
            ) : view.kind === 'error' ? (
              <div className="app-alert">
                <p className="kit-error">{view.message}</p>
                <Button variant="secondary" dense onPress={() => setAttempt((n) => n + 1)}>
                  Try again
                </Button>
              </div>
            ) : view.items.length === 0 ? (
              <p className="app-empty">
                {searched ? `Nothing in ${providerName} matches “${searched}”.` : 'This folder is empty.'}
              </p>
            ) : (
              <table className="app-table app-browse__table">
                <caption className="visually-hidden">{placeName}</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Size</th>
                    <th scope="col">Modified</th>
                  </tr>
                </thead>
                <tbody>
                  {view.items.map((item) => (
                    <tr key={item.ref}>
                      <th scope="row" title={item.path ?? item.name}>
                        {item.folder ? (
                          <button
                            type="button"
                            className="app-link-button app-browse__folder"
                            aria-label={`Open folder ${item.name}`}
                            onClick={() =>
                              open(
                                searched
                                  ? [trail[0]!, { id: item.id, name: item.name }]
                                  : [...trail, { id: item.id, name: item.name }],
                              )
                            }
                          >
                            <span aria-hidden="true" className="app-browse__icon">
                              ▸
                            </span>
                            {item.name}
                          </button>
                        ) : chosen.has(item.ref) ? (
                          <span className="app-browse__already">
                            {item.name} <em>(in the upload)</em>
                          </span>
                        ) : (
                          <Checkbox
                            className="app-browse__pick"
                            label={item.name}
                            value={selected.has(item.ref)}
                            onChange={(on) => toggle(item, on)}
                          />
                        )}
                      </th>
                      <td>{item.folder || item.size === null ? '—' : formatBytes(item.size)}</td>
                      <td>{modified(item.modifiedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <p className="visually-hidden" role="status">
            {announcement}
          </p>
          <div className="kit-dialog__actions app-browse__actions">
            <p className="app-browse__count" aria-live="polite">
              {count === 0 ? 'No files selected' : `${count} selected`}
            </p>
            <Button variant="secondary" onPress={onClose}>
              Cancel
            </Button>
            <Button isDisabled={count === 0} onPress={() => onAdd([...selected.values()])}>
              {addLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
