import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ErrorPage } from "~/components/error-page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Modal, ModalClose } from "~/components/ui/modal";
import { Select } from "~/components/ui/select";
import { showToast } from "~/components/ui/toast";
import { EmptyState, KeysetPager, OrganizedFileTable, PageHeader } from "~/features/files/components/organized-file-table";
import { FILE_NAME_MAX } from "~/features/files/files.constants";
import { getTemplates, type CopiedDocument, type OrganizedFile, type UploadTarget } from "~/features/files/organize.server";
import { copyTemplateSchema, documentNameFor, extensionOf } from "~/features/files/organize.schema";
import { runLoader } from "~/lib/action-result.server";
import { requireMember } from "~/features/auth/auth-guard.server";
import { handleHttpError, http, HttpError } from "~/lib/http";
import { serviceContextFor } from "~/lib/request-context.server";
import { titleMeta } from "~/lib/title";
import { teamDriveFor } from "~/features/teams/team-drive.server";
import { currentWorkspace } from "~/features/teams/workspace.server";
import type { Route } from "./+types/templates";

export const meta: Route.MetaFunction = () => titleMeta("Document templates");

/** The document templates of the member's spaces, and the folders a new document may go to. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = requireMember(context, request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const ctx = serviceContextFor(context);
  return runLoader(async () => {
    // The workspace chosen in the shell (issue 42): the templates of the team's drive and rooms, or the member's own.
    const workspace = await currentWorkspace(ctx, user.id, request);
    const drive = workspace ? await teamDriveFor(ctx, workspace.id, workspace.filesRights) : null;
    const page = await getTemplates(ctx, user.id, { cursor }, { teamId: workspace?.id ?? null, rootFolderId: drive?.canEdit ? drive.rootId : null });
    return { page, isFirstPage: cursor === undefined, workspace: workspace ? { name: workspace.name } : null };
  });
}

type Created = CopiedDocument & { folderLabel: string };

export default function TemplatesPage({ loaderData }: Route.ComponentProps) {
  const { page, isFirstPage, workspace } = loaderData;
  const [chosen, setChosen] = useState<OrganizedFile | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Document templates"
        description={
          workspace
            ? `Files marked as templates in the files and data rooms of the team “${workspace.name}”. Use one to start a new document from a copy; the template stays as it is. Switch to Personal (top right) for your own.`
            : "Files marked as templates in your spaces. Use one to start a new document from a copy; the template stays as it is."
        }
      />
      {created ? (
        <Alert variant="success" title="Document created" onDismiss={() => setCreated(null)} dismissLabel="Dismiss message">
          <Link to={`/files/${created.id}`} className="font-medium underline">
            Open {created.name}
          </Link>{" "}
          in {created.folderLabel}.
        </Alert>
      ) : null}
      {page.templates.length === 0 ? (
        <EmptyState>
          {isFirstPage ? "No templates yet. Open a file and switch on “Use as document template” in its details." : "No more templates."}
        </EmptyState>
      ) : (
        <OrganizedFileTable
          caption="Document templates"
          files={page.templates}
          action={(template) => (
            <Button size="sm" variant="secondary" onClick={() => setChosen(template)} aria-label={`Use template ${template.name}`}>
              Use template
            </Button>
          )}
        />
      )}
      <KeysetPager nextHref={page.nextCursor ? `?cursor=${encodeURIComponent(page.nextCursor)}` : null} isFirstPage={isFirstPage} firstHref="/templates" />
      {chosen ? (
        <UseTemplateModal
          key={chosen.id}
          template={chosen}
          destinations={page.destinations}
          defaultFolderId={page.defaultFolderId}
          onClose={() => setChosen(null)}
          onCreated={(document) => {
            setChosen(null);
            setCreated(document);
            showToast(`Created ${document.name}`, { type: "success" });
          }}
        />
      ) : null}
    </div>
  );
}

function UseTemplateModal({
  template,
  destinations,
  defaultFolderId,
  onClose,
  onCreated,
}: {
  template: OrganizedFile;
  destinations: readonly UploadTarget[];
  defaultFolderId: string;
  onClose: () => void;
  onCreated: (document: Created) => void;
}) {
  const [name, setName] = useState("");
  const [folderId, setFolderId] = useState(defaultFolderId);
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const extension = extensionOf(template.name);
  const formId = `use-template-${template.id}`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setNameError(null);
    setFormError(null);
    const parsed = copyTemplateSchema.safeParse({ folderId, name });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === "name") setNameError(issue.message);
      else setFormError(issue?.message ?? "Check the form.");
      return;
    }
    setBusy(true);
    try {
      const body = await http.post<{ file: CopiedDocument }>(`/api/organize/templates/${template.id}/copy`, parsed.data, { handleErrors: false });
      const label = destinations.find((destination) => destination.uid === body.file.folderId)?.label ?? "the folder";
      onCreated({ ...body.file, folderLabel: label });
    } catch (error) {
      // Refusals of this form are shown next to it; sign-in and session problems go the usual way.
      if (error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 419) {
        const fieldMessage = (error.body as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors?.name?.[0];
        if (fieldMessage) setNameError(fieldMessage);
        else setFormError(error.message);
      } else {
        handleHttpError(error);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      isDismissable={!isBusy}
      title={`Use template ${template.name}`}
      description="A copy of the template becomes a new document in the folder you choose."
      footer={
        <>
          <ModalClose asChild>
            <Button variant="secondary" disabled={isBusy}>
              Cancel
            </Button>
          </ModalClose>
          <Button type="submit" form={formId} isLoading={isBusy}>
            Create document
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <Input
          label="Name"
          required
          value={name}
          maxLength={FILE_NAME_MAX}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          description={extension ? `Without an extension, ${extension} is added (${documentNameFor(name.trim() || "Name", template.name)}).` : undefined}
          autoComplete="off"
          autoFocus
        />
        <Select
          label="Destination folder"
          options={destinations.map((destination) => ({
            value: destination.uid,
            label: destinations.some((other) => other.spaceName !== destination.spaceName) ? `${destination.label} — ${destination.spaceName}` : destination.label,
          }))}
          value={folderId}
          onValueChange={setFolderId}
        />
        {formError ? <Alert variant="error">{formError}</Alert> : null}
      </form>
    </Modal>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
