// React 19's useOptimistic typechecks, but the browser's preact/compat only fakes it (decision 053).
import { useOptimistic } from 'react';

export default function Wishlist({ saved }: { saved: boolean }) {
  const [shown] = useOptimistic(saved);
  return <p>{shown ? 'Saved' : 'Not saved'}</p>;
}
