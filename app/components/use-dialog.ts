import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A modal <dialog> (the drawer, the search overlay): the browser traps focus and closes it on
 * Escape; we add the page scroll lock the spec asks for.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback(() => {
    ref.current?.showModal();
    setOpen(true);
  }, []);
  const close = useCallback(() => ref.current?.close(), []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onClose = () => setOpen(false);
    dialog.addEventListener('close', onClose);
    return () => dialog.removeEventListener('close', onClose);
  }, []);

  useEffect(() => {
    document.body.classList.toggle('scroll-locked', open);
    return () => document.body.classList.remove('scroll-locked');
  }, [open]);

  return { ref, open, show, close };
}
