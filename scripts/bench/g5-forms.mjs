// Forms (issue 37): G5, the first-load JavaScript of a public form (/forms/{id}/view, a two-page
// template with logic) and of a shared submission (/submissions/shared/{token}) for an anonymous
// visitor (QUALITY G5's public list). Made through the API as a member would.
import { createMember, signIn } from "./session.mjs";

export async function bench({ baseUrl, stateDir, addFirstLoad }) {
  const login = { email: `bench-forms-${Date.now()}@example.com`, password: "bench-forms-password-2026" };
  await createMember(stateDir, { ...login, tier: "pro" });
  const owner = await signIn(baseUrl, login);
  const call = async (method, path, body, expected) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers: owner.headers({ "Content-Type": "application/json" }), body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status !== expected) throw new Error(`g5-forms: ${method} ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return response.json();
  };
  const { form } = await call("POST", "/api/forms", { templateId: "template-client-intake" }, 201);
  await call("POST", `/api/forms/${form.id}/publish`, undefined, 200);
  addFirstLoad("/forms/{id}/view", "public, form", 120 * 1024, await (await fetch(`${baseUrl}/forms/${form.id}/view`)).text());

  const { submissionId } = await call("POST", `/api/forms/${form.id}/submissions`, { answers: { name: "Bench", email: "bench@example.com", kind: "A person", matter: "G5", consent: true } }, 201);
  const { path } = await call("POST", `/api/forms/${form.id}/submissions/${submissionId}/shares`, { days: 1 }, 201);
  addFirstLoad("/submissions/shared/{token}", "public, shared submission", 120 * 1024, await (await fetch(`${baseUrl}${path}`)).text());
}
