import { useEffect, useRef, useState } from 'react';
import { useNavigation, useSubmit } from 'react-router';
import { loadCheckout, type RazorpayResponse } from './razorpay-checkout.ts';
import { checkoutWindowText as t } from './checkout-window-texts.ts';

/** One payment through Razorpay Checkout: the order the server made, and the words Checkout shows. */
export type CheckoutOrder = {
  keyId: string;
  orderId: string;
  amountPaise: number;
  currency: string;
  name: string;
  description: string;
  prefill: Record<string, string>;
};

/**
 * Razorpay Checkout on a pay page (a rental booking's, a reservation's): loads checkout.js,
 * opens the payment window and posts Checkout's answer to the page's own action, where the
 * server checks its signature; the page never decides that it was paid. `verifying` is true
 * while that post runs; `problem` is what to tell the buyer when the window cannot open or the
 * payment fails; `notice` says that nothing was paid when they closed the window without paying.
 */
export function useRazorpayCheckout(checkoutUrl: string) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [state, setState] = useState<'idle' | 'loading' | 'open' | 'failed'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  async function pay(order: CheckoutOrder) {
    setProblem(null);
    setNotice(null);
    setState('loading');
    try {
      await loadCheckout(checkoutUrl);
    } catch {
      if (mounted.current) {
        setState('failed');
        setProblem(t('loadFailed'));
      }
      return;
    }
    const Razorpay = window.Razorpay!;
    // A failure said why already; closing after it needs no second word.
    let failed = false;
    const instance = new Razorpay({
      key: order.keyId,
      order_id: order.orderId,
      amount: order.amountPaise,
      currency: order.currency,
      name: order.name,
      description: order.description,
      prefill: order.prefill,
      handler: (answer: RazorpayResponse) => {
        void submit(
          { razorpay_payment_id: answer.razorpay_payment_id, razorpay_order_id: answer.razorpay_order_id, razorpay_signature: answer.razorpay_signature },
          { method: 'post' },
        );
      },
      modal: {
        ondismiss: () => {
          if (!mounted.current) return;
          setState('idle');
          if (!failed) setNotice(t('closed'));
        },
      },
    });
    instance.on('payment.failed', (answer) => {
      failed = true;
      if (mounted.current) setProblem(answer.error?.description ? t('failedBecause', { reason: answer.error.description }) : t('failed'));
    });
    instance.open();
    setState('open');
  }

  return { pay, loading: state === 'loading', problem, notice, verifying: navigation.state !== 'idle' };
}
