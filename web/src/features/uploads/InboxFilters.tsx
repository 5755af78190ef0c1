/**
 * The staff inbox's search and filters (#31): search over client, company, event and file name; form type,
 * event, review state, spec state, handled, received between. Changes apply at once; the search on Enter.
 */
import { useId, useState } from 'react';
import { Button, SelectField } from '../../ui';
import { TITLES } from './UploadForms';

export interface InboxFilterValues {
  q: string;
  formType: string;
  event: string;
  review: string;
  spec: string;
  handled: string;
  from: string;
  to: string;
}

export const NO_FILTERS: InboxFilterValues = {
  q: '',
  formType: '',
  event: '',
  review: '',
  spec: '',
  handled: '',
  from: '',
  to: '',
};

const ALL = 'all';
const FORM_OPTIONS = [
  { id: ALL, label: 'All types' },
  { id: 'creative', label: TITLES.creative },
  { id: 'event', label: TITLES.event },
  { id: 'sponsor', label: TITLES.sponsor },
];
const REVIEW_OPTIONS = [
  { id: ALL, label: 'Any' },
  { id: 'new', label: 'New' },
  { id: 'accepted', label: 'Accepted' },
  { id: 'needs_new_version', label: 'Needs a new version' },
];
const SPEC_OPTIONS = [
  { id: ALL, label: 'Any' },
  { id: 'ok', label: 'Meets spec' },
  { id: 'issues', label: 'Has issues' },
  { id: 'unreadable', label: 'Could not be read' },
  { id: 'unknown', label: 'Not read yet' },
];
const HANDLED_OPTIONS = [
  { id: ALL, label: 'All' },
  { id: 'no', label: 'Not handled' },
  { id: 'yes', label: 'Handled' },
];

export interface InboxFiltersProps {
  value: InboxFilterValues;
  events: string[];
  onChange: (next: InboxFilterValues) => void;
}

export function InboxFilters({ value, events, onChange }: InboxFiltersProps) {
  const [search, setSearch] = useState(value.q);
  const searchId = useId();
  const fromId = useId();
  const toId = useId();
  const set = (key: keyof InboxFilterValues) => (next: string) =>
    onChange({ ...value, [key]: next === ALL ? '' : next });
  const eventOptions = [
    { id: ALL, label: 'All events' },
    ...[...new Set(value.event ? [...events, value.event] : events)]
      .filter((name) => name !== '')
      .map((name) => ({ id: name, label: name })),
  ];

  return (
    <div className="inbox-filters">
      <form
        role="search"
        aria-label="Search the inbox"
        className="inbox-filters__search"
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ ...value, q: search.trim() });
        }}
      >
        <label htmlFor={searchId}>Search</label>
        <div className="inbox-filters__search-row">
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder="Client, company, event or file"
            onChange={(event) => setSearch(event.target.value)}
          />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </div>
      </form>
      <SelectField
        label="Form type"
        options={FORM_OPTIONS}
        value={value.formType || ALL}
        onChange={set('formType')}
      />
      <SelectField label="Event" options={eventOptions} value={value.event || ALL} onChange={set('event')} />
      <SelectField
        label="Review"
        options={REVIEW_OPTIONS}
        value={value.review || ALL}
        onChange={set('review')}
      />
      <SelectField label="Spec" options={SPEC_OPTIONS} value={value.spec || ALL} onChange={set('spec')} />
      <SelectField
        label="Handled"
        options={HANDLED_OPTIONS}
        value={value.handled || ALL}
        onChange={set('handled')}
      />
      <div className="inbox-filters__date">
        <label htmlFor={fromId}>Received from</label>
        <input
          id={fromId}
          type="date"
          value={value.from}
          onChange={(event) => set('from')(event.target.value)}
        />
      </div>
      <div className="inbox-filters__date">
        <label htmlFor={toId}>Received to</label>
        <input id={toId} type="date" value={value.to} onChange={(event) => set('to')(event.target.value)} />
      </div>
      <Button
        variant="text"
        onPress={() => {
          setSearch('');
          onChange(NO_FILTERS);
        }}
      >
        Clear filters
      </Button>
    </div>
  );
}
