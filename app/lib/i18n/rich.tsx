import { Fragment, type ReactNode } from 'react';

/**
 * A text with marked parts that render as elements: 'Read the <terms>rental terms</terms>
 * first' with `{ terms: (words) => <Link to="/rent/terms">{words}</Link> }`. Each language
 * puts the link where its own sentence needs it; marks a text does not name render as words.
 */
export function RichText({ text, parts }: { text: string; parts: Record<string, (words: string) => ReactNode> }) {
  const nodes: ReactNode[] = [];
  const mark = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (const match of text.matchAll(mark)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const render = parts[match[1]!];
    nodes.push(<Fragment key={match.index}>{render ? render(match[2]!) : match[2]}</Fragment>);
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return <>{nodes}</>;
}
