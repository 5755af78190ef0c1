/**
 * Slider with one handle or a range of two (react-aria Slider: arrow keys, Page Up/Down, Home/End, drag).
 * Defaults (widgetDefaults.slider): 0 to 100, precision 0, handle 20 px, a gap of at least 1 between the
 * two handles, a single handle's fill drawn from the origin 50. With `allowUnlimited` an 'Unlimited Max'
 * checkbox sets the upper end to Infinity (saved as the text 'Infinity' by the keyed store).
 *
 * Activation: the handles' value bubbles show while the slider is being changed and for 2000 ms after the
 * last change, or for 500 ms after the slider's range (min, max or 'Unlimited Max') changed.
 */
import { UNLIMITED_MAX } from '@avp/shared';
import { useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react';
import { Label, Slider, SliderFill, SliderOutput, SliderThumb, SliderTrack } from 'react-aria-components';
import { Checkbox } from '../Checkbox';
import { classNames } from '../field';
import { widgetDefaults } from '../theme';
import { useControllable } from '../useControllable';
import { isUnlimited, keepGap, roundTo, stepForPrecision, type SliderValue } from './range';

const defaults = widgetDefaults.slider;

export interface RangeSliderProps {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string | undefined;
  /** A number for one handle, [low, high] for a range. */
  value?: SliderValue;
  defaultValue?: SliderValue;
  onChange?: (value: SliderValue) => void;
  onBlur?: () => void;
  min?: number;
  max?: number;
  precision?: number;
  /** Thumb size in px. */
  handleSize?: number;
  /** Minimum gap between the two handles. */
  snap?: number;
  /** Where a single handle's fill starts. */
  origin?: number;
  /** Ranges only: offer 'Unlimited Max' (upper end Infinity). */
  allowUnlimited?: boolean;
  activationTimeoutMs?: number;
  rangeChangeActivationTimeoutMs?: number;
  /** Names of the two handles for assistive technology. */
  thumbLabels?: readonly [string, string];
  isDisabled?: boolean;
  className?: string;
}

interface Activation {
  id: number;
  ms: number;
}

export function RangeSlider({
  label,
  description,
  errorMessage,
  value,
  defaultValue = defaults.origin,
  onChange,
  onBlur,
  min = defaults.min,
  max = defaults.max,
  precision = defaults.precision,
  handleSize = defaults.handleSize,
  snap = defaults.snap,
  origin = defaults.origin,
  allowUnlimited = false,
  activationTimeoutMs = defaults.activationTimeoutMs,
  rangeChangeActivationTimeoutMs = defaults.rangeChangeActivationTimeoutMs,
  thumbLabels = ['Minimum', 'Maximum'],
  isDisabled = false,
  className,
}: RangeSliderProps) {
  const [current, setCurrent] = useControllable<SliderValue>(value, defaultValue, onChange);
  const isRange = typeof current !== 'number';
  const unlimited = isUnlimited(current);
  const showUnlimited = isRange && (allowUnlimited || unlimited);

  const [activation, setActivation] = useState<Activation | null>(null);
  const activate = (ms: number) => setActivation((previous) => ({ id: (previous?.id ?? 0) + 1, ms }));

  // A changed range (min, max or 'Unlimited Max') activates the slider briefly.
  const rangeKey = `${min}|${max}|${unlimited}`;
  const [previousRangeKey, setPreviousRangeKey] = useState(rangeKey);
  if (rangeKey !== previousRangeKey) {
    setPreviousRangeKey(rangeKey);
    activate(rangeChangeActivationTimeoutMs);
  }

  useEffect(() => {
    if (!activation) return;
    const timer = setTimeout(() => setActivation(null), activation.ms);
    return () => clearTimeout(timer);
  }, [activation]);

  // What react-aria sees: finite numbers within the scale.
  const sliderValue: number | number[] = isRange ? [current[0], unlimited ? max : current[1]] : current;

  const handleChange = (next: number | number[]) => {
    activate(activationTimeoutMs);
    if (typeof next === 'number') {
      setCurrent(roundTo(next, precision));
      return;
    }
    if (!isRange) return;
    const previous: readonly [number, number] = [current[0], unlimited ? max : current[1]];
    const [low, high] = keepGap(previous, [next[0] ?? min, next[1] ?? max], snap, min, max);
    setCurrent([roundTo(low, precision), unlimited ? Infinity : roundTo(high, precision)]);
  };

  const setUnlimited = (on: boolean) => {
    if (!isRange) return;
    setCurrent([current[0], on ? Infinity : max]);
  };

  const descriptionId = useId();
  const errorId = useId();
  const describedBy = [description ? descriptionId : '', errorMessage ? errorId : '']
    .filter(Boolean)
    .join(' ');

  const format = (n: number) => (n === Infinity ? 'Unlimited' : n.toFixed(Math.max(0, precision)));
  const style = { '--kit-slider-handle': `${handleSize}px` } as CSSProperties;

  return (
    <div className={classNames('kit-field', 'kit-slider-field', className)}>
      <Slider
        className="kit-slider"
        value={sliderValue}
        onChange={handleChange}
        minValue={min}
        maxValue={max}
        step={stepForPrecision(precision)}
        isDisabled={isDisabled}
        formatOptions={{ maximumFractionDigits: precision, useGrouping: false }}
        style={style}
        data-active={activation ? true : undefined}
        data-invalid={errorMessage ? true : undefined}
      >
        <div className="kit-slider__head">
          <Label className="kit-label">{label}</Label>
          <SliderOutput className="kit-slider__output">
            {({ state }) =>
              isRange
                ? `${format(state.values[0] ?? min)} – ${format(current[1])}`
                : format(state.values[0] ?? min)
            }
          </SliderOutput>
        </div>
        <SliderTrack className="kit-slider__track">
          {({ state }) => (
            <>
              <div className="kit-slider__rail" />
              <SliderFill className="kit-slider__fill" offset={isRange ? undefined : origin} />
              {state.values.map((thumbValue, index) => (
                <SliderThumb
                  key={index}
                  index={index}
                  className="kit-slider__thumb"
                  aria-label={isRange ? thumbLabels[index] : undefined}
                  isDisabled={isRange && index === 1 && unlimited}
                  onBlur={() => onBlur?.()}
                  aria-describedby={describedBy || undefined}
                >
                  <span className="kit-slider__bubble" aria-hidden="true">
                    {isRange && index === 1 && unlimited ? '∞' : format(thumbValue)}
                  </span>
                </SliderThumb>
              ))}
            </>
          )}
        </SliderTrack>
      </Slider>
      {description ? (
        <div id={descriptionId} className="kit-help">
          {description}
        </div>
      ) : null}
      {showUnlimited ? (
        <Checkbox label={UNLIMITED_MAX} value={unlimited} onChange={setUnlimited} isDisabled={isDisabled} />
      ) : null}
      {errorMessage ? (
        <div id={errorId} className="kit-error">
          {errorMessage}
        </div>
      ) : null}
    </div>
  );
}
