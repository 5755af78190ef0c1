/**
 * /ui: every widget of the kit in every state, for people to try (development builds, and the
 * Playwright build made with VITE_UI_SHOWCASE=true). Not linked from the site.
 */
import { CONTACT_MESSAGE_MAX, QUANTITY_MAX, QUANTITY_MIN, STORE_DELETE_CONFIRM } from '@avp/shared';
import { useEffect, useState, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  ConfirmDialog,
  createKeyedStore,
  DateInput,
  DateTimeField,
  EmailField,
  FillChart,
  media,
  MessageDialog,
  NumberInput,
  PasswordField,
  PhoneField,
  RadioGroup,
  RangeSlider,
  SelectField,
  Suggestions,
  TextAreaField,
  TextField,
  theme,
  TimeInput,
  TimeSelect,
  useKeyedStore,
  widgetDefaults,
  type SliderValue,
} from '..';
import { ContactFormDemo } from './ContactFormDemo';
import './showcase.css';

const ROOMS = ['Ballroom A', 'Ballroom B', 'Exhibit Hall C', 'Meeting Room 101', 'Meeting Room 102'];
const STATES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'Florida',
  'Georgia',
  'Illinois',
  'Maryland',
  'Massachusetts',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'Ohio',
  'Pennsylvania',
  'Texas',
  'Virginia',
  'Washington',
];
const LONG_MESSAGE = 'A'.repeat(CONTACT_MESSAGE_MAX + 12);

/** The keyed store persists the budget range, so 'Unlimited Max' can be seen saved as the text Infinity. */
const showcaseStore = createKeyedStore({ persist: ['ui-showcase:budget'] });

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="ui-showcase__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Grid({ children }: { children: ReactNode }) {
  return <div className="ui-showcase__grid">{children}</div>;
}

function Buttons() {
  return (
    <Section id="ui-buttons" title="Buttons">
      <div className="ui-showcase__row">
        <Button>Primary</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="text">Text</Button>
        <Button isDisabled>Disabled</Button>
      </div>
      <div className="ui-showcase__row">
        <Button dense>Dense</Button>
        <Button dense variant="secondary">
          Dense secondary
        </Button>
        <Button dense variant="text">
          Dense text
        </Button>
      </div>
    </Section>
  );
}

function TextFields() {
  const [message, setMessage] = useState('');
  return (
    <Section id="ui-text" title="Text fields">
      <Grid>
        <TextField label="Company" />
        <TextField label="Booth" description="As printed on your exhibitor packet" isRequired />
        <TextField label="Company (filled)" defaultValue="Acme Productions" />
        <TextField label="First name (error)" errorMessage="Must enter a first name." isRequired />
        <TextField label="Store ID (read only)" defaultValue="demo-expo" isReadOnly />
        <TextField label="Room (disabled)" defaultValue="Ballroom A" isDisabled />
        <EmailField label="E-mail" description="We reply within one business day" />
        <EmailField label="E-mail (error)" defaultValue="me@" errorMessage="Invalid email address." />
        <PhoneField label="Phone" />
        <PhoneField label="Phone (error)" defaultValue="555" errorMessage="Invalid phone number." />
      </Grid>
      <Grid>
        <TextAreaField
          label="Message"
          description={`Up to ${CONTACT_MESSAGE_MAX} characters`}
          limit={CONTACT_MESSAGE_MAX}
          value={message}
          onChange={setMessage}
        />
        <TextAreaField
          label="Message (over the limit)"
          limit={CONTACT_MESSAGE_MAX}
          defaultValue={LONG_MESSAGE}
          errorMessage="Please supply a message no larger than 300 characters."
        />
      </Grid>
    </Section>
  );
}

function Lists() {
  return (
    <Section id="ui-lists" title="Select and suggestions">
      <p className="ui-showcase__note">
        Lists appear {widgetDefaults.listAppearDelayMs} ms after opening; the suggestion panel is at most{' '}
        {widgetDefaults.suggestions.panelMaxHeight} px high and its list scrolls beyond{' '}
        {widgetDefaults.suggestions.listMaxHeight} px.
      </p>
      <Grid>
        <SelectField label="Room" options={ROOMS} />
        <SelectField
          label="Room (chosen)"
          options={ROOMS}
          defaultValue="Ballroom B"
          description="Where to deliver"
        />
        <SelectField label="Room (error)" options={ROOMS} errorMessage="This field is required." isRequired />
        <SelectField label="Room (disabled)" options={ROOMS} defaultValue="Ballroom A" isDisabled />
        <Suggestions label="State" suggestions={STATES} description="Type part of a name, e.g. 'new'" />
        <Suggestions
          label="State (error)"
          suggestions={STATES}
          errorMessage="This field is required."
          isRequired
        />
        <Suggestions label="State (disabled)" suggestions={STATES} defaultValue="Texas" isDisabled />
      </Grid>
    </Section>
  );
}

function Dates() {
  const [delivery, setDelivery] = useState('');
  const [deliveryTime, setDeliveryTime] = useState('8:00 AM');
  return (
    <Section id="ui-dates" title="Date and time">
      <p className="ui-showcase__note">
        Type M/D/YYYY, M/D (this year) or a 12 to 13 digit timestamp; a bad entry shows its message for 2500
        ms, then reverts. Alt+ArrowDown or the calendar button opens a {widgetDefaults.date.dialogWidth} px
        calendar.
      </p>
      <Grid>
        <DateInput label="Date" description="M/D/YYYY" />
        <DateInput label="Date (filled)" defaultValue="2031-06-20" />
        <DateInput
          label="Date in July 2031"
          description="Allowed: 7/1/2031 to 7/31/2031"
          minDate="2031-07-01"
          maxDate="2031-07-31"
        />
        <DateInput label="Date (error)" errorMessage="This field is required." isRequired />
        <DateInput label="Date (disabled)" defaultValue="2031-06-20" isDisabled />
        <TimeInput label="Time (12-hour)" description="hh:mm am" defaultValue="8:00 AM" />
        <TimeInput label="Time (12-hour, AM/PM apart)" meridiem={false} />
        <TimeInput label="Time (24-hour)" clock="24h" defaultValue="17:30" />
        <TimeInput label="Time (error)" errorMessage="This field is required." />
      </Grid>
      <TimeSelect
        label="Session time"
        description="Hours 1 to 12, minutes in steps of 5"
        hour={{ defaultValue: '' }}
        minute={{ defaultValue: '' }}
        meridiem={{ defaultValue: '' }}
      />
      <DateTimeField
        legend="Delivery (date and time, 60% / 40%)"
        date={{ label: 'Delivery date', value: delivery, onChange: setDelivery }}
        time={{ label: 'Delivery time', value: deliveryTime, onChange: setDeliveryTime }}
      />
    </Section>
  );
}

function Passwords() {
  return (
    <Section id="ui-passwords" title="Password">
      <Grid>
        <PasswordField label="New password" description="Hints appear 1200 ms after you stop typing" />
        <PasswordField label="Password (login)" autoComplete="current-password" />
        <PasswordField label="Confirm password (error)" errorMessage="Passwords must match." />
      </Grid>
    </Section>
  );
}

function Numbers() {
  return (
    <Section id="ui-numbers" title="Numbers">
      <Grid>
        <NumberInput
          label="Quantity"
          description={`${QUANTITY_MIN} to ${QUANTITY_MAX}, whole numbers ('.' is blocked)`}
          min={QUANTITY_MIN}
          max={QUANTITY_MAX}
          defaultValue={1}
          showSteppers
        />
        <NumberInput label="Price" description="Two decimals, 0 to 10000" min={0} max={10000} precision={2} />
        <NumberInput label="Quantity (error)" errorMessage="Please choose a quantity from 1 to 25." />
        <NumberInput label="Quantity (disabled)" defaultValue={3} isDisabled />
      </Grid>
    </Section>
  );
}

function Sliders() {
  const budget = useKeyedStore<SliderValue>(showcaseStore, 'ui-showcase:budget');
  // What the keyed store wrote to localStorage (re-read whenever the entry changes), so the text
  // 'Infinity' can be seen.
  const saved =
    budget.data === undefined ? '' : (window.localStorage.getItem('avp:ui-showcase:budget') ?? '');
  return (
    <Section id="ui-sliders" title="Sliders">
      <Grid>
        <RangeSlider label="Balance" description="One handle; the fill starts at the origin, 50" />
        <RangeSlider
          label="Price range"
          defaultValue={[20, 60]}
          snap={5}
          description="Handles stay 5 apart"
        />
        <div>
          <RangeSlider
            label="Budget"
            value={budget.data ?? [10, Infinity]}
            onChange={budget.setData}
            allowUnlimited
            min={0}
            max={1000}
            description="Kept in the keyed store (localStorage)"
          />
          <p className="ui-showcase__note">
            Saved as: <code data-testid="budget-saved">{saved || '(nothing yet)'}</code>
          </p>
        </div>
        <RangeSlider label="Volume (disabled)" defaultValue={30} isDisabled />
        <RangeSlider label="Volume (error)" defaultValue={95} errorMessage="Keep it below 90." />
      </Grid>
    </Section>
  );
}

function Choices() {
  const [items, setItems] = useState([true, false, false]);
  const all = items.every(Boolean);
  const some = items.some(Boolean);
  return (
    <Section id="ui-choices" title="Checkboxes and radio buttons">
      <Grid>
        <fieldset className="kit-fieldset">
          <legend className="kit-legend">Checkbox states</legend>
          <Checkbox label="Unchecked" />
          <Checkbox label="Checked" defaultValue />
          <Checkbox label="Partial" isIndeterminate />
          <Checkbox label="Disabled" isDisabled />
          <Checkbox label="I accept the rental terms" errorMessage="Please accept the rental terms." />
        </fieldset>
        <fieldset className="kit-fieldset">
          <legend className="kit-legend">Select all (partial when some are ticked)</legend>
          <Checkbox
            label="All products"
            value={all}
            isIndeterminate={some && !all}
            onChange={(checked) => setItems(items.map(() => checked))}
          />
          {['Monitor', 'Projector', 'Microphone'].map((name, index) => (
            <Checkbox
              key={name}
              label={name}
              value={items[index] ?? false}
              onChange={(checked) => setItems(items.map((v, i) => (i === index ? checked : v)))}
            />
          ))}
        </fieldset>
        <RadioGroup label="Asset type" options={['Creative asset', 'Event asset', 'Sponsor commercial']} />
        <RadioGroup
          label="Newsletter"
          orientation="horizontal"
          options={[
            { id: 'YES', label: 'Yes' },
            { id: 'NO', label: 'No' },
          ]}
          defaultValue="NO"
        />
        <RadioGroup
          label="Clock (error)"
          options={['12-hour', '24-hour']}
          errorMessage="Please choose one."
        />
        <RadioGroup
          label="Clock (disabled)"
          options={['12-hour', '24-hour']}
          defaultValue="12-hour"
          isDisabled
        />
      </Grid>
    </Section>
  );
}

function Charts() {
  return (
    <Section id="ui-charts" title="Fill chart">
      <Grid>
        <FillChart label="Upload progress" value={35} />
        <FillChart label="Load (within 20 to 80)" value={55} range={[20, 80]} />
        <FillChart label="Load (outside 20 to 80)" value={92} range={[20, 80]} />
      </Grid>
    </Section>
  );
}

function Dialogs() {
  const [message, setMessage] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [answer, setAnswer] = useState('');
  return (
    <Section id="ui-dialogs" title="Dialogs">
      <div className="ui-showcase__row">
        <Button onPress={() => setMessage(true)}>Show message</Button>
        <Button variant="secondary" onPress={() => setConfirm(true)}>
          Delete store…
        </Button>
        <span role="status">{answer}</span>
      </div>
      <MessageDialog isOpen={message} onClose={() => setMessage(false)} title="Thank you">
        Your message has been sent.
      </MessageDialog>
      <ConfirmDialog
        isOpen={confirm}
        title="Delete store"
        text={STORE_DELETE_CONFIRM}
        confirmLabel="Continue and Delete"
        cancelLabel="Cancel"
        destructive
        onConfirm={() => {
          setConfirm(false);
          setAnswer('Deleted (example only).');
        }}
        onCancel={() => {
          setConfirm(false);
          setAnswer('Kept.');
        }}
      />
    </Section>
  );
}

function ThemeTable() {
  return (
    <Section id="ui-theme" title="Theme constants">
      <table className="ui-showcase__table">
        <caption>SPEC §9 layout constants (ui/theme.ts)</caption>
        <tbody>
          {Object.entries(theme).map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{typeof value === 'object' ? JSON.stringify(value) : value}</td>
            </tr>
          ))}
          {Object.entries(media).map(([name, query]) => (
            <tr key={`media-${name}`}>
              <th scope="row">media.{name}</th>
              <td>{query}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function ShowcasePage() {
  useEffect(() => {
    document.title = 'Widget kit';
  }, []);
  return (
    <main id="main" className="main main--bare ui-showcase">
      <h1>Widget kit</h1>
      <p>Every form widget of the site in each of its states. Everything works with the keyboard alone.</p>
      <Buttons />
      <TextFields />
      <Lists />
      <Dates />
      <Passwords />
      <Numbers />
      <Sliders />
      <Choices />
      <Charts />
      <Dialogs />
      <Section id="ui-form" title="A form (react-hook-form + the shared contact schema)">
        <ContactFormDemo />
      </Section>
      <ThemeTable />
    </main>
  );
}

export default ShowcasePage;
