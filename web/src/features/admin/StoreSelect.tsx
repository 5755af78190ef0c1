import { SelectField } from '../../ui';
import type { StaffStore } from './api';

interface StoreSelectProps {
  stores: StaffStore[];
  value: string;
  onChange: (value: string) => void;
  label?: string;
  placeholder?: string;
  /** A filter: 'All stores' (the value '') first, then each store by name. Otherwise name and Store ID. */
  allStores?: boolean;
}

/** The staff pages' store picker; the value is the store's numeric key as text. */
export function StoreSelect({
  stores,
  value,
  onChange,
  label = 'Store',
  placeholder,
  allStores,
}: StoreSelectProps) {
  const options = allStores
    ? [{ id: '', label: 'All stores' }, ...stores.map((s) => ({ id: String(s.id), label: s.name }))]
    : stores.map((s) => ({ id: String(s.id), label: `${s.name} (${s.store_id})` }));
  return (
    <SelectField
      label={label}
      value={value}
      onChange={onChange}
      placeholder={placeholder ?? (allStores ? 'All stores' : 'Choose a store')}
      options={options}
    />
  );
}
