/** Buttons of the whole site: 40 px high, 32 px when dense (SPEC §9 via theme.ts / --button-height). */
import type { ReactNode, Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { classNames } from './field';

export type ButtonVariant = 'primary' | 'secondary' | 'text';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children'> {
  children: ReactNode;
  variant?: ButtonVariant;
  /** 32 px instead of 40 px. */
  dense?: boolean;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'primary', dense = false, className, children, ...props }: ButtonProps) {
  return (
    <AriaButton
      {...props}
      className={classNames('kit-button', `kit-button--${variant}`, dense && 'kit-button--dense', className)}
    >
      {children}
    </AriaButton>
  );
}
