/** The examples page's banner: red 'API Test Failed' with message and steps, or green 'API Test Successful'. */
export interface BannerResult {
  success: boolean;
  message: string;
  detailed_instructions?: string[];
}

export function TestResultBanner({ result }: { result: BannerResult | null }) {
  if (!result) return null;
  if (result.success) {
    return (
      <div className="test-banner test-banner-success" role="status" data-testid="test-banner">
        <h2>API Test Successful</h2>
        <p>{result.message}</p>
      </div>
    );
  }
  return (
    <div className="test-banner test-banner-failure" role="alert" data-testid="test-banner">
      <h2>API Test Failed</h2>
      <p>{result.message}</p>
      {result.detailed_instructions && result.detailed_instructions.length > 0 && (
        <ol>
          {result.detailed_instructions.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      )}
    </div>
  );
}
