import { useEffect, useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "~/components/csrf-input";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { buttonClassName, Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { redirectWithNotice } from "~/features/auth/auth-route.server";
import { fieldErrorsFrom, FolderFields, validateFolderFields, type FolderFieldErrors, type FolderFieldValues } from "~/features/files/components/folder-fields";
import { createFolder } from "~/features/files/folders.server";
import { getNewFolderTarget } from "~/features/files/new-folder.server";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { AppError, type FieldErrors } from "~/lib/errors";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { toastMessages } from "~/lib/toast.schema";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => titleMeta("New folder");

const KINDS = [
  { value: "regular", label: "Folder", description: "Files and subfolders." },
  { value: "gallery", label: "Gallery", description: "Shown as a grid of its images and videos." },
] as const;
type Kind = (typeof KINDS)[number]["value"];

/** /folders/new?parent=<uid>: the parent must be a folder the member may edit (else 403/404). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const parentParam = new URL(request.url).searchParams.get("parent");
  return runLoader(() => getNewFolderTarget(serviceContextFor(context), user.id, parentParam));
}

type Submitted = FolderFieldValues & { kind: Kind };
type CreateFailure = { ok: false; message: string; fieldErrors?: FieldErrors; values: Submitted };

function text(value: FormDataEntryValue | null): string {
  return typeof value === "string" ? value : "";
}

export async function action({ context, request }: Route.ActionArgs) {
  const { user } = requireMember(context, request);
  const form = await request.formData();
  // With JavaScript off the icon comes from a plain text box (the hidden field stays empty).
  const icon = form
    .getAll("icon")
    .map(text)
    .filter((name) => name.trim() !== "")
    .at(-1);
  const kind = text(form.get("kind"));
  const input = {
    parentId: text(form.get("parentId")),
    label: text(form.get("label")),
    color: text(form.get("color")),
    icon: icon ?? null,
    kind: kind === "" ? undefined : kind,
  };
  try {
    const folder = await createFolder(serviceContextFor(context), user.id, input);
    return redirectWithNotice(context, `/folders/${folder.uid}`, { type: "success", message: toastMessages.created("Folder") });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const values: Submitted = { label: input.label, color: input.color, icon: input.icon, kind: kind === "gallery" ? "gallery" : "regular" };
    return data<CreateFailure>({ ok: false, message: error.message, fieldErrors: error.fieldErrors, values }, { status: error.status });
  }
}

export default function NewFolderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { parent, crumbs } = loaderData;
  const navigation = useNavigation();
  const failure = actionData && "ok" in actionData ? (actionData as CreateFailure) : null;
  const [values, setValues] = useState<FolderFieldValues>(() => failure?.values ?? { label: "", color: "", icon: null });
  const [kind, setKind] = useState<Kind>(() => failure?.values.kind ?? "regular");
  const [errors, setErrors] = useState<FolderFieldErrors>(() => fieldErrorsFrom(failure));

  // A refusal from the server replaces whatever the browser had checked.
  useEffect(() => setErrors(fieldErrorsFrom(failure)), [failure]);

  const serverFieldErrors = fieldErrorsFrom(failure);
  const formMessage = failure && Object.keys(serverFieldErrors).length === 0 ? failure.message : null;
  const isSubmitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/folders/new") === true;

  return (
    <div className="mx-auto max-w-xl space-y-6">
      <div className="space-y-2">
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
            {crumbs.map((crumb, index) => (
              <li key={crumb.uid} className="flex items-center gap-1">
                {index > 0 ? <span aria-hidden>/</span> : null}
                <Link to={`/folders/${crumb.uid}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  {crumb.label}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
        <h1 className="text-2xl font-semibold text-slate-900">New folder</h1>
        <p className="text-slate-700">
          It will be created in <span className="font-medium text-slate-900">{parent.label}</span>.
        </p>
      </div>
      <Card>
        <CardContent>
          <Form
            method="post"
            noValidate
            className="space-y-6"
            onSubmit={(event) => {
              const found = validateFolderFields(values);
              if (Object.keys(found).length === 0) return;
              event.preventDefault();
              setErrors(found);
              const first = found.label ? "label" : "color";
              event.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
            }}
          >
            <CsrfInput />
            <input type="hidden" name="parentId" value={parent.uid} />
            {formMessage ? <Alert variant="error">{formMessage}</Alert> : null}
            <FolderFields
              idPrefix="new-folder"
              values={values}
              onChange={(next) => {
                setErrors((current) => {
                  const kept: FolderFieldErrors = {};
                  for (const name of ["label", "color", "icon"] as const) if (current[name] && next[name] === values[name]) kept[name] = current[name];
                  return kept;
                });
                setValues(next);
              }}
              errors={errors}
              kind={kind}
              hasNoScriptIconFallback
            />
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-900">Kind</legend>
              {KINDS.map((option) => (
                <label key={option.value} className="flex items-start gap-3 text-sm">
                  <input
                    type="radio"
                    name="kind"
                    value={option.value}
                    checked={kind === option.value}
                    onChange={() => setKind(option.value)}
                    className="mt-0.5 h-4 w-4 accent-brand-600"
                  />
                  <span>
                    <span className="font-medium text-slate-900">{option.label}</span>
                    <span className="block text-slate-600">{option.description}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <div className="flex justify-end gap-2">
              <Link to={`/folders/${parent.uid}`} className={buttonClassName({ variant: "secondary" })}>
                Cancel
              </Link>
              <Button type="submit" isLoading={isSubmitting}>
                Create folder
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
