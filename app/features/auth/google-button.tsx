import { Form } from 'react-router';
import { googleNotConfigured, type GoogleButtonState } from './auth-messages.ts';
import { GoogleIcon, secondaryButton } from '../../components/form.tsx';

/** The sign-in and sign-up pages' Google button (see googleButtonState for when it shows how). */
export function GoogleButton({
  state,
  label,
  busyLabel,
  busy,
  disabled,
  onSubmit,
}: {
  state: GoogleButtonState;
  label: string;
  busyLabel: string;
  busy: boolean;
  disabled: boolean;
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
}) {
  if (state === 'hidden') return null;
  if (state === 'not-configured') {
    return (
      <div className="mt-3 flex flex-col gap-2">
        <button type="button" disabled aria-describedby="google-not-configured" className={secondaryButton}>
          <GoogleIcon /> {label}
        </button>
        <p id="google-not-configured" className="text-center text-sm text-slate-600">
          {googleNotConfigured()}
        </p>
      </div>
    );
  }
  return (
    <Form method="post" className="mt-3 flex flex-col" {...(onSubmit ? { onSubmit } : {})}>
      <button type="submit" name="intent" value="google" disabled={disabled} className={secondaryButton}>
        <GoogleIcon /> {busy ? busyLabel : label}
      </button>
    </Form>
  );
}
