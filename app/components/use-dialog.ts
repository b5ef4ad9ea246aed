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
    // Locked as the dialog opens, not by an effect after the next paint: on a busy phone the
    // page could scroll under an open dialog for a moment.
    document.body.classList.add('scroll-locked');
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
