import { useEffect, useId, useState, type ReactNode } from "react";
import { Alert, alertVariants, type AlertVariant } from "~/components/ui/alert";
import { Avatar, avatarSizes } from "~/components/ui/avatar";
import { Badge, badgeVariants } from "~/components/ui/badge";
import { Button, buttonSizes, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, type CheckboxState } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Pagination } from "~/components/ui/pagination";
import { clampProgress, ProgressBar } from "~/components/ui/progress-bar";
import { RadioGroup } from "~/components/ui/radio-group";
import { Select } from "~/components/ui/select";
import { Spinner, spinnerSizes } from "~/components/ui/spinner";
import {
  SortableHeaderCell,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  type SortDirection,
} from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { Toggle } from "~/components/ui/toggle";

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Spec §9 interface kit, "Controls": every control of the kit in every state. */
export function KitControlsSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <header>
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          Controls
        </h2>
        <p className="mt-1 text-sm text-slate-700">Buttons, form controls and data display, in every variant and state.</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <ButtonDemo />
        <InputDemo />
        <TextareaDemo />
        <SelectDemo />
        <CheckboxDemo />
        <RadioGroupDemo />
        <ToggleDemo />
        <BadgeDemo />
        <AvatarDemo />
        <CardDemo />
        <AlertDemo />
        <SpinnerDemo />
        <ProgressBarDemo />
        <PaginationDemo />
      </div>
      <TableDemo />
    </section>
  );
}

function Demo({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  return (
    <div data-testid={`kit-${name}`} className="min-w-0 space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {children}
    </div>
  );
}

function DemoGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-700">{title}</h4>
      {children}
    </div>
  );
}

function ButtonDemo() {
  const [isSaving, setSaving] = useState(false);
  const [saveCount, setSaveCount] = useState(0);
  useEffect(() => {
    if (!isSaving) return;
    // Long enough for a test on a busy machine to see the busy state before it ends.
    const timer = setTimeout(() => {
      setSaving(false);
      setSaveCount((count) => count + 1);
    }, 3000);
    return () => clearTimeout(timer);
  }, [isSaving]);

  return (
    <Demo name="button" title="Button">
      <DemoGroup title="Variants and sizes">
        <div className="space-y-2">
          {buttonVariants.map((variant) => (
            <div key={variant} className="flex flex-wrap items-center gap-2">
              {buttonSizes.map((size) => (
                <Button key={size} variant={variant} size={size}>
                  {capitalize(variant)} {size}
                </Button>
              ))}
            </div>
          ))}
        </div>
      </DemoGroup>
      <DemoGroup title="Disabled">
        <div className="flex flex-wrap items-center gap-2">
          {buttonVariants.map((variant) => (
            <Button key={variant} variant={variant} disabled>
              {capitalize(variant)} disabled
            </Button>
          ))}
        </div>
      </DemoGroup>
      <DemoGroup title="Loading">
        <div className="flex flex-wrap items-center gap-2">
          {buttonVariants.map((variant) => (
            <Button key={variant} variant={variant} isLoading>
              {capitalize(variant)} loading
            </Button>
          ))}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button isLoading={isSaving} onClick={() => setSaving(true)}>
            {isSaving ? "Saving…" : "Save changes"}
          </Button>
          <p role="status" className="text-sm text-slate-700">
            {saveCount > 0 ? `Saved ${saveCount} ${saveCount === 1 ? "time" : "times"}` : ""}
          </p>
        </div>
      </DemoGroup>
    </Demo>
  );
}

function InputDemo() {
  const [workspace, setWorkspace] = useState("finance");
  const workspaceError =
    workspace.trim() === "" ? "Enter a workspace name" : workspace === "finance" ? "That workspace name is taken" : undefined;
  return (
    <Demo name="input" title="Input">
      <Input label="Full name" name="fullName" autoComplete="name" placeholder="Ada Lovelace" />
      <Input
        label="Email address"
        type="email"
        name="email"
        autoComplete="email"
        required
        description="We send sign-in links to this address."
      />
      <Input
        label="Workspace name"
        value={workspace}
        onChange={(event) => setWorkspace(event.target.value)}
        error={workspaceError}
      />
      <Input label="Document ID" defaultValue="DOC-2024-0042" disabled />
    </Demo>
  );
}

function TextareaDemo() {
  const [summary, setSummary] = useState("");
  return (
    <Demo name="textarea" title="Textarea">
      <Textarea
        label="Description"
        name="description"
        maxLength={200}
        description="Shown to everyone who can open the data room."
      />
      <Textarea label="Notes" name="notes" />
      <Textarea
        label="Summary"
        value={summary}
        onChange={(event) => setSummary(event.target.value)}
        required
        error={summary.trim().length < 10 ? "Write at least 10 characters" : undefined}
      />
      <Textarea label="Archived comment" defaultValue="This comment can no longer be edited." disabled />
    </Demo>
  );
}

const documentTypes = [
  { value: "contract", label: "Contract" },
  { value: "invoice", label: "Invoice" },
  { value: "report", label: "Report" },
  { value: "legal-hold", label: "Legal hold (restricted)", isDisabled: true },
  { value: "minutes", label: "Board minutes" },
];

function SelectDemo() {
  const [documentType, setDocumentType] = useState<string | undefined>(undefined);
  const [retention, setRetention] = useState<string | undefined>(undefined);
  const chosen = documentTypes.find((option) => option.value === documentType);
  return (
    <Demo name="select" title="Select">
      <Select
        label="Document type"
        placeholder="Choose a type"
        options={documentTypes}
        value={documentType}
        onValueChange={setDocumentType}
        description="Legal hold is only available to administrators."
      />
      <p className="text-sm text-slate-700">Chosen type: {chosen ? chosen.label : "none"}</p>
      <Select
        label="Retention period"
        placeholder="Choose a period"
        isRequired
        options={[
          { value: "1y", label: "1 year" },
          { value: "5y", label: "5 years" },
          { value: "10y", label: "10 years" },
        ]}
        value={retention}
        onValueChange={setRetention}
        error={retention ? undefined : "Choose how long to keep documents"}
      />
      <Select
        label="Region"
        options={[{ value: "eu", label: "Europe (Frankfurt)" }]}
        defaultValue="eu"
        isDisabled
        description="Set when the workspace was created."
      />
    </Demo>
  );
}

const files = ["Contract.pdf", "Invoice.pdf", "Report.pdf"] as const;

function CheckboxDemo() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set(["Invoice.pdf"]));
  const [hasAccepted, setAccepted] = useState<CheckboxState>(false);
  const allState: CheckboxState =
    selected.size === files.length ? true : selected.size === 0 ? false : "indeterminate";

  const toggleFile = (file: string, checked: CheckboxState) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (checked === true) next.add(file);
      else next.delete(file);
      return next;
    });

  return (
    <Demo name="checkbox" title="Checkbox">
      <DemoGroup title="Indeterminate (some files selected)">
        <Checkbox
          label="Select all files"
          checked={allState}
          onCheckedChange={(checked) => setSelected(new Set(checked === true ? files : []))}
        />
        <div className="space-y-2 pl-8">
          {files.map((file) => (
            <Checkbox
              key={file}
              label={file}
              checked={selected.has(file)}
              onCheckedChange={(checked) => toggleFile(file, checked)}
            />
          ))}
        </div>
        <p className="text-sm text-slate-700">
          {selected.size} of {files.length} files selected
        </p>
      </DemoGroup>
      <DemoGroup title="States">
        <Checkbox label="Email me a weekly summary" description="Sent every Monday morning." />
        <Checkbox label="Keep me signed in" defaultChecked />
        <Checkbox
          label="I accept the terms of use"
          isRequired
          checked={hasAccepted}
          onCheckedChange={setAccepted}
          error={hasAccepted === true ? undefined : "Accept the terms to continue"}
        />
        <Checkbox label="Share with external guests (disabled)" isDisabled />
        <Checkbox label="Encrypt files (disabled, always on)" isDisabled defaultChecked />
        <Checkbox label="Partially applied policy (disabled)" isDisabled checked="indeterminate" />
      </DemoGroup>
    </Demo>
  );
}

const sharingOptions = [
  { value: "private", label: "Only me" },
  { value: "team", label: "My team", description: "Everyone in the finance team." },
  { value: "link", label: "Anyone with the link" },
  { value: "public", label: "Public (disabled by your administrator)", isDisabled: true },
];

function RadioGroupDemo() {
  const [sharing, setSharing] = useState("team");
  const [format, setFormat] = useState<string | undefined>(undefined);
  return (
    <Demo name="radio-group" title="Radio group">
      <RadioGroup label="Sharing" options={sharingOptions} value={sharing} onValueChange={setSharing} />
      <p className="text-sm text-slate-700">
        Shared with: {sharingOptions.find((option) => option.value === sharing)?.label}
      </p>
      <RadioGroup
        label="Export format"
        orientation="horizontal"
        isRequired
        options={[
          { value: "pdf", label: "PDF" },
          { value: "zip", label: "ZIP archive" },
        ]}
        value={format}
        onValueChange={setFormat}
        error={format ? undefined : "Choose an export format"}
      />
      <RadioGroup
        label="Storage tier (disabled)"
        isDisabled
        defaultValue="standard"
        options={[
          { value: "standard", label: "Standard" },
          { value: "archive", label: "Archive" },
        ]}
      />
    </Demo>
  );
}

function ToggleDemo() {
  const [isTwoFactorOn, setTwoFactorOn] = useState(false);
  return (
    <Demo name="toggle" title="Toggle">
      <Toggle
        label="Two-factor authentication"
        description="Ask for a code from your authenticator app at sign-in."
        checked={isTwoFactorOn}
        onCheckedChange={setTwoFactorOn}
      />
      <p className="text-sm text-slate-700">Two-factor authentication is {isTwoFactorOn ? "on" : "off"}.</p>
      <Toggle label="Email notifications" defaultChecked />
      <Toggle label="Audit log export (disabled)" isDisabled />
      <Toggle label="Encryption at rest (disabled, always on)" isDisabled defaultChecked />
    </Demo>
  );
}

function BadgeDemo() {
  return (
    <Demo name="badge" title="Badge">
      <div className="flex flex-wrap gap-2">
        {badgeVariants.map((variant) => (
          <Badge key={variant} variant={variant}>
            {capitalize(variant)}
          </Badge>
        ))}
      </div>
    </Demo>
  );
}

// A self-contained picture (the CSP allows data: images), so the kit needs no network.
const samplePortrait = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#2f4fc4"/><circle cx="32" cy="25" r="12" fill="#dae6ff"/><path d="M10 64c2-14 12-21 22-21s20 7 22 21z" fill="#dae6ff"/></svg>',
)}`;

function AvatarDemo() {
  return (
    <Demo name="avatar" title="Avatar">
      <DemoGroup title="With a picture, in every size">
        <div className="flex items-center gap-3">
          {avatarSizes.map((size) => (
            <Avatar key={size} name="Ada Lovelace" src={samplePortrait} size={size} />
          ))}
        </div>
      </DemoGroup>
      <DemoGroup title="Initials when there is no picture, or it fails to load">
        <div className="flex items-center gap-3">
          {avatarSizes.map((size) => (
            <Avatar key={size} name="Grace Hopper" size={size} />
          ))}
          <Avatar name="Alan Turing" src="data:image/png;base64,AAAAAAAA" />
          <Avatar name="Cher" />
        </div>
      </DemoGroup>
    </Demo>
  );
}

function CardDemo() {
  return (
    <Demo name="card" title="Card">
      <Card>
        <CardHeader>
          <CardTitle as="h4">Quarterly report</CardTitle>
          <CardDescription>Uploaded by Grace Hopper, 12 pages.</CardDescription>
        </CardHeader>
        <CardContent>
          <p>Revenue, costs and the outlook for the next quarter, prepared for the board.</p>
        </CardContent>
        <CardFooter>
          <Button variant="secondary" size="sm">
            Preview
          </Button>
          <Button size="sm">Download</Button>
        </CardFooter>
      </Card>
      <Card>
        <CardContent>A card with content only.</CardContent>
      </Card>
    </Demo>
  );
}

const alertTitles: Record<AlertVariant, string> = {
  info: "Scheduled maintenance",
  success: "Upload complete",
  warning: "Link expires soon",
  error: "Upload failed",
};
const alertMessages: Record<AlertVariant, string> = {
  info: "Strongroom will be read-only on Sunday from 02:00 to 03:00 UTC.",
  success: "All 12 files were uploaded and scanned.",
  warning: "The share link for “Due diligence” expires in 2 days.",
  error: "contract.pdf could not be uploaded. Try again.",
};

function AlertDemo() {
  const [isDismissed, setDismissed] = useState(false);
  return (
    <Demo name="alert" title="Alert">
      {alertVariants.map((variant) => (
        <Alert key={variant} variant={variant} title={alertTitles[variant]}>
          {alertMessages[variant]}
        </Alert>
      ))}
      {isDismissed ? (
        <Button variant="secondary" size="sm" onClick={() => setDismissed(false)}>
          Show the dismissible alert again
        </Button>
      ) : (
        <Alert variant="info" title="Dismissible" onDismiss={() => setDismissed(true)}>
          Close this message with the Dismiss button.
        </Alert>
      )}
    </Demo>
  );
}

function SpinnerDemo() {
  return (
    <Demo name="spinner" title="Spinner">
      <div className="flex items-center gap-6">
        {spinnerSizes.map((size) => (
          <Spinner key={size} size={size} />
        ))}
        <span className="inline-flex items-center gap-2 text-sm text-slate-700">
          <Spinner size="sm" label="Loading documents" />
          <span aria-hidden="true">Loading documents…</span>
        </span>
      </div>
    </Demo>
  );
}

function ProgressBarDemo() {
  const [requested, setRequested] = useState(40);
  const inputId = useId();
  return (
    <Demo name="progress-bar" title="Progress bar">
      <DemoGroup title="Fixed values and sizes">
        <ProgressBar value={0} label="Not started" showValue size="sm" />
        <ProgressBar value={45} label="Uploading contract.pdf" showValue />
        <ProgressBar value={100} label="Scan complete" showValue size="lg" />
        <ProgressBar value={60} />
      </DemoGroup>
      <DemoGroup title="Clamped to 0–100">
        <ProgressBar value={requested} label="Upload progress" showValue />
        <div className="space-y-1.5">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
            Requested value
          </label>
          <input
            id={inputId}
            type="range"
            min={-50}
            max={150}
            step={5}
            value={requested}
            onChange={(event) => setRequested(Number(event.target.value))}
            className="w-full accent-brand-600"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setRequested((value) => value - 25)}>
            Decrease by 25
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setRequested((value) => value + 25)}>
            Increase by 25
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setRequested(-20)}>
            Set to −20
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setRequested(150)}>
            Set to 150
          </Button>
        </div>
        <p className="text-sm text-slate-700" data-testid="progress-requested">
          Requested {requested}, shown {clampProgress(requested)}
        </p>
      </DemoGroup>
    </Demo>
  );
}

function PaginationDemo() {
  const [page, setPage] = useState(1);
  const [folderPage, setFolderPage] = useState(2);
  const [auditPage, setAuditPage] = useState(25);
  return (
    <Demo name="pagination" title="Pagination">
      <DemoGroup title="20 pages">
        <Pagination currentPage={page} totalPages={20} onPageChange={setPage} />
        <p aria-live="polite" className="text-sm text-slate-700">
          Page {page} of 20
        </p>
      </DemoGroup>
      <DemoGroup title="3 pages (no ellipsis needed)">
        <Pagination label="Folder pages" currentPage={folderPage} totalPages={3} onPageChange={setFolderPage} />
      </DemoGroup>
      <DemoGroup title="50 pages, 2 siblings, up to 7 numbered pages">
        <Pagination
          label="Audit log pages"
          currentPage={auditPage}
          totalPages={50}
          siblingCount={2}
          maxVisiblePages={7}
          onPageChange={setAuditPage}
        />
        <p className="text-sm text-slate-700">Audit log page {auditPage} of 50</p>
      </DemoGroup>
    </Demo>
  );
}

type DocumentRow = { name: string; owner: string; sizeKb: number; status: "Signed" | "Draft" | "Expired" };
const documents: DocumentRow[] = [
  { name: "Share purchase agreement.pdf", owner: "Ada Lovelace", sizeKb: 842, status: "Signed" },
  { name: "Board minutes March.docx", owner: "Grace Hopper", sizeKb: 96, status: "Draft" },
  { name: "Audit findings.xlsx", owner: "Alan Turing", sizeKb: 310, status: "Expired" },
  { name: "Cap table.xlsx", owner: "Ada Lovelace", sizeKb: 54, status: "Signed" },
];
const statusVariant = { Signed: "success", Draft: "neutral", Expired: "danger" } as const;
type SortKey = "name" | "sizeKb";

function TableDemo() {
  const [sort, setSort] = useState<{ key: SortKey; direction: Exclude<SortDirection, "none"> }>({
    key: "name",
    direction: "ascending",
  });
  const sorted = [...documents].sort((a, b) => {
    const order = sort.key === "name" ? a.name.localeCompare(b.name) : a.sizeKb - b.sizeKb;
    return sort.direction === "ascending" ? order : -order;
  });
  const sortBy = (key: SortKey) =>
    setSort((previous) => ({
      key,
      direction: previous.key === key && previous.direction === "ascending" ? "descending" : "ascending",
    }));
  const directionOf = (key: SortKey): SortDirection => (sort.key === key ? sort.direction : "none");

  return (
    <Demo name="table" title="Table">
      <Table caption="Recent documents">
        <TableHead>
          <TableRow>
            <SortableHeaderCell sortDirection={directionOf("name")} onSort={() => sortBy("name")}>
              Name
            </SortableHeaderCell>
            <TableHeaderCell>Owner</TableHeaderCell>
            <SortableHeaderCell sortDirection={directionOf("sizeKb")} onSort={() => sortBy("sizeKb")} className="text-right">
              Size
            </SortableHeaderCell>
            <TableHeaderCell>Status</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sorted.map((row) => (
            <TableRow key={row.name}>
              <TableHeaderCell scope="row">{row.name}</TableHeaderCell>
              <TableCell>{row.owner}</TableCell>
              <TableCell className="text-right tabular-nums">{row.sizeKb} KB</TableCell>
              <TableCell>
                <Badge variant={statusVariant[row.status]}>{row.status}</Badge>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Demo>
  );
}
