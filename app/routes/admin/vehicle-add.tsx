// Being built: see the admin issue.
export default function Page() {
  return <h1 className="text-2xl font-extrabold">vehicle-add</h1>;
}
