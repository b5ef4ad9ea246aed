// `React.useActionState` would slip past a list of named imports (decision 053).
import React from 'react';

export function Counter() {
  const [count] = React.useActionState((previous: number) => previous + 1, 0);
  return <p>{count}</p>;
}
