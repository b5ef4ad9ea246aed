import { useEffect, useRef, useState } from 'react';
import { secondaryButton } from '../../components/form.tsx';
import { useHydrated } from '../../components/use-hydrated.ts';
import { deliveryText as t } from './delivery-texts.ts';

/**
 * The buyer signs on the desk's screen (decision 116): a canvas drawn on with a finger, a pen or
 * the mouse (pointer events), a Clear button, and the drawing as a PNG data URL in the form's
 * `signature` field. Without JavaScript the pad stays hidden and the typed name beside it signs.
 * A drawing sent back with a refused form is drawn again, so the buyer need not sign twice.
 */
export function SignaturePad({ initial, error }: { initial?: string | undefined; error?: string | undefined }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [value, setValue] = useState(initial ?? '');
  // Shown only once the script runs: without it, the typed name signs.
  const ready = useHydrated();
  const drawing = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!ready || !canvas) return;
    // The canvas's pixels follow its shown size and the screen's density, so a line is sharp on a phone.
    const scale = window.devicePixelRatio || 1;
    const box = canvas.getBoundingClientRect();
    canvas.width = Math.round(box.width * scale);
    canvas.height = Math.round(box.height * scale);
    const context = canvas.getContext('2d');
    if (!context) return;
    context.scale(scale, scale);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#0f172a';
    if (initial) {
      const image = new Image();
      image.onload = () => context.drawImage(image, 0, 0, box.width, box.height);
      image.src = initial;
    }
  }, [ready, initial]);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const start = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = point(event);
  };

  const move = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const from = drawing.current;
    const context = event.currentTarget.getContext('2d');
    if (!from || !context) return;
    const to = point(event);
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
    drawing.current = to;
  };

  const end = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    drawing.current = null;
    setValue(event.currentTarget.toDataURL('image/png'));
  };

  const clear = () => {
    const canvas = canvasRef.current;
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    setValue('');
  };

  return (
    <div className={ready ? 'flex flex-col gap-2' : 'hidden'} data-signature-pad>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={t('signaturePad')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'signature-error' : undefined}
        className="h-40 w-full touch-none rounded-lg bg-white ring-2 ring-slate-300 sm:h-48"
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
      />
      <input type="hidden" name="signature" value={value} />
      <button type="button" onClick={clear} className={`${secondaryButton} self-start`}>
        {t('clearSignature')}
      </button>
    </div>
  );
}
