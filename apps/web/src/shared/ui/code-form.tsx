import type { FormEvent, ReactNode } from 'react';
import type { Resend } from '../hooks/use-resend.js';
import { Button } from './button.js';
import { CodeInput } from './code-input.js';
import { Countdown } from './countdown.js';

/** The resend block's words, the screen's own ('Reenviar Código', 'Reenviar NIP'…). */
interface ResendCopy {
  button: string;
  /** Before the countdown: 'Podrás pedir otro código en'. */
  waiting: string;
  /** After a new code went out. */
  sent: string;
}

interface CodeFormProps {
  length: number;
  /** Accessible name of the boxes, e.g. 'Código de seguridad'. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Sends the code; called only once every box holds a digit (the button waits for them too). */
  onSubmit: () => unknown;
  submitLabel: string;
  /** Why the code typed was refused, under the boxes. */
  error?: string;
  /** Between the boxes and the submit button (the consent text). */
  children?: ReactNode;
  resend: Resend;
  onResend: () => void;
  resendCopy: ResendCopy;
  /** Last in the resend block (the guarantor's 'change the number'). */
  resendExtra?: ReactNode;
}

/**
 * The screens that ask for a code sent by SMS (the phone's security code, the consent PIN, the
 * guarantor's PIN): the boxes, a refusal, the submit button, then sending it again after a wait.
 */
export function CodeForm(props: CodeFormProps) {
  const { length, value, resend } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.length === length) void props.onSubmit();
  };
  return (
    <>
      <form className="stack" onSubmit={submit} noValidate>
        <CodeInput length={length} value={value} onChange={props.onChange} label={props.label} autoFocus />
        {props.error && (
          <p className="field-error center" role="alert">
            {props.error}
          </p>
        )}
        {props.children}
        <Button type="submit" disabled={value.length !== length}>
          {props.submitLabel}
        </Button>
      </form>
      <div className="resend">
        <Button variant="secondary" disabled={resend.wait.waiting} onClick={props.onResend}>
          {props.resendCopy.button}
        </Button>
        {resend.wait.waiting && (
          <p className="resend-wait">
            {props.resendCopy.waiting}{' '}
            <Countdown key={resend.wait.key} seconds={resend.wait.seconds} onDone={resend.finish} />
          </p>
        )}
        {resend.sent && (
          <p className="resend-done" role="status">
            {props.resendCopy.sent}
          </p>
        )}
        {props.resendExtra}
      </div>
    </>
  );
}
