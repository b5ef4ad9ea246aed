// react-dom's useFormStatus typechecks, but preact/compat has no such export (decision 053).
import { useFormStatus } from 'react-dom';

export function SubmitButton() {
  const { pending } = useFormStatus();
  return <button disabled={pending}>Send</button>;
}
