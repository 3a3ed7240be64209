/** What a visitor sees once their answers are in (the public form and the preview). */
export function FormThanks({ message, test }: { message: string; test?: boolean }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-4" data-testid="form-thanks">
      <h2 className="text-lg font-semibold text-emerald-900">Thank you: your answers were sent.</h2>
      {message ? <p className="whitespace-pre-wrap text-sm text-emerald-900">{message}</p> : null}
      {test ? <p className="text-sm text-emerald-900">This was a test submission: it is kept apart from the real ones.</p> : null}
    </div>
  );
}
